package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A port another program holds: the daemon refuses to start with an error naming the port, what it
 * is for and the option that chooses another, and leaves nothing open (the other port is free again).
 */
class TakenPortTest {

    @Test
    void aTakenPortNamesItselfAndItsOption(@TempDir Path dir) throws Exception {
        try (ServerSocket held = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                ServerSocket free = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int api = held.getLocalPort();
            int nodes = free.getLocalPort();
            free.close();
            DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, DaemonFixture.POOLS),
                    dir.resolve("data")).withPorts(nodes, api);
            SchedulerDaemon.DaemonException refused = assertThrows(SchedulerDaemon.DaemonException.class,
                    () -> SchedulerDaemon.start(settings, Clock.SYSTEM));
            assertEquals("cannot listen for the API on 127.0.0.1:" + api + ": the address is in use (another Grove, or "
                    + "another program, listens there); choose another port with --http-port", refused.getMessage());
            // the node port it had opened was closed again
            try (ServerSocket again = new ServerSocket(nodes, 50, InetAddress.getLoopbackAddress())) {
                assertTrue(again.isBound());
            }
        }
    }

    @Test
    void theNodePortToo(@TempDir Path dir) throws Exception {
        try (ServerSocket held = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, DaemonFixture.POOLS),
                    dir.resolve("data")).withPorts(held.getLocalPort(), 0);
            SchedulerDaemon.DaemonException refused = assertThrows(SchedulerDaemon.DaemonException.class,
                    () -> SchedulerDaemon.start(settings, Clock.SYSTEM));
            assertTrue(refused.getMessage().startsWith("cannot listen for nodes on 127.0.0.1:" + held.getLocalPort()
                    + ": the address is in use"), refused.getMessage());
            assertTrue(refused.getMessage().endsWith("choose another port with --node-port"), refused.getMessage());
        }
    }
}
