package io.grove.agent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;

/**
 * Rank 0 of a gang listens on {@code MASTER_PORT}, a port the scheduler chose for this node; the
 * agent checks it is free before the rank is accepted, so that a port some other program holds
 * refuses the start (the scheduler drops the plan whole and plans the gang again with the next
 * port) instead of leaving every rank waiting for a rendezvous that never comes.
 */
final class GangPort {

    private GangPort() {
    }

    /** Why the start is refused, or {@code null}: a rank 0 whose port is taken, or not a port. */
    static String refusal(Map<String, String> env) {
        if (env == null || !"0".equals(env.get("GROVE_GANG_RANK")) || env.get("MASTER_PORT") == null) {
            return null;
        }
        int port;
        try {
            port = Integer.parseInt(env.get("MASTER_PORT"));
        } catch (NumberFormatException e) {
            return "MASTER_PORT is not a port number";
        }
        if (port < 1024 || port > 65535) {
            return "MASTER_PORT " + port + " is outside 1024-65535";
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(port));
            return null;
        } catch (IOException e) {
            return "MASTER_PORT " + port + " is in use on this node (" + e.getMessage() + ")";
        }
    }
}
