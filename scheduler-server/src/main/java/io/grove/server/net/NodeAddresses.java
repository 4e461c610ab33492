package io.grove.server.net;

import io.grove.protocol.HeartbeatNow;
import io.netty.channel.Channel;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Where each node's own HTTP endpoint is ({@code host:port}, from its handshake), so that the API
 * can tell users where a job's logs are.
 */
public final class NodeAddresses {

    private final Map<String, String> addresses = new ConcurrentHashMap<>();
    /** The address each node's connection came from: its logs are read there, not wherever it says. */
    private final Map<String, InetAddress> peers = new ConcurrentHashMap<>();
    private final Map<String, Object> sessions = new ConcurrentHashMap<>();
    /** The connections of nodes that may be asked to heartbeat now (protocol version 3 and later). */
    private final Map<String, Channel> nudgeable = new ConcurrentHashMap<>();

    /**
     * Sets a node's address and the address its connection came from ({@code null} when it has
     * none); returns the address it had before, or {@code null}.
     */
    String put(String nodeId, String address, InetAddress peer) {
        if (peer == null) {
            peers.remove(nodeId);
        } else {
            peers.put(nodeId, peer);
        }
        if (address == null || address.isEmpty()) {
            return addresses.remove(nodeId);
        }
        return addresses.put(nodeId, address);
    }

    /**
     * Makes {@code session} the one connection of {@code nodeId}, unless another live one holds
     * it ({@code alive} says whether a holder still counts: connected, and heard from lately). A
     * holder that no longer counts is handed to {@code displaced}, once the id is the new session's.
     *
     * @return the holder that kept the id, or {@code null} when {@code session} now holds it
     */
    Object claim(String nodeId, Object session, Predicate<Object> alive, Consumer<Object> displaced) {
        Object[] kept = new Object[1];
        Object[] replaced = new Object[1];
        sessions.compute(nodeId, (id, holder) -> {
            if (holder != null && holder != session && alive.test(holder)) {
                kept[0] = holder;
                return holder;
            }
            replaced[0] = holder == session ? null : holder;
            return session;
        });
        if (replaced[0] != null) {
            displaced.accept(replaced[0]);
        }
        return kept[0];
    }

    /** The session's connection ended: the id is free. */
    void release(String nodeId, Object session) {
        sessions.remove(nodeId, session);
        if (session instanceof Channel channel) {
            nudgeable.remove(nodeId, channel);
        }
    }

    /** The node's connection speaks a version that may be asked to heartbeat now. */
    void nudgeable(String nodeId, Channel channel) {
        nudgeable.put(nodeId, channel);
    }

    /**
     * Asks these nodes to heartbeat now ({@link io.grove.protocol.HeartbeatNow}); nodes of older
     * protocol versions, or not connected, are left to their period. Returns how many were asked.
     */
    public int nudge(Iterable<String> nodeIds) {
        int asked = 0;
        for (String nodeId : nodeIds) {
            Channel channel = nudgeable.get(nodeId);
            if (channel != null && channel.isActive()) {
                channel.writeAndFlush(new HeartbeatNow());
                asked++;
            }
        }
        return asked;
    }

    /**
     * Where the scheduler reads from the node's agent: the address its connection came from, at
     * the port it gave ({@code host:port}); {@code null} when it gave none.
     */
    public String agent(String nodeId) {
        String given = of(nodeId);
        InetAddress peer = nodeId == null ? null : peers.get(nodeId);
        if (given == null || peer == null) {
            return given;
        }
        String host = peer.getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + given.substring(given.lastIndexOf(':'));
    }

    /** The node's address, or {@code null} when it gave none. */
    public String of(String nodeId) {
        return nodeId == null ? null : addresses.get(nodeId);
    }
}
