package io.grove.server.net;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each node's own HTTP endpoint is ({@code host:port}, from its handshake), so that the API
 * can tell users where a job's logs are.
 */
public final class NodeAddresses {

    private final Map<String, String> addresses = new ConcurrentHashMap<>();

    void put(String nodeId, String address) {
        if (address == null || address.isEmpty()) {
            addresses.remove(nodeId);
        } else {
            addresses.put(nodeId, address);
        }
    }

    /** The node's address, or {@code null} when it gave none. */
    public String of(String nodeId) {
        return nodeId == null ? null : addresses.get(nodeId);
    }
}
