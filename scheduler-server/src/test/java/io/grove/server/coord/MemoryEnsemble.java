package io.grove.server.coord;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The in-memory twin of a ZooKeeper ensemble, for {@link MemoryCoordination} clients: znodes with
 * versions, sequential and ephemeral nodes, sessions that expire when the ensemble has not heard
 * from them for the session timeout, a leader latch, and atomic fenced writes — all on an injected
 * clock, and all synchronous, so that a seeded simulation of it is repeatable. It can be stopped
 * and started (sessions live on, as ZooKeeper's do across a restart of the ensemble).
 *
 * <p>Its methods hold its lock, so that a log's writer thread and a test can share it; a
 * simulation drives it from one thread.
 */
public final class MemoryEnsemble {

    /** A znode: its data, version, and the session that owns it when it is ephemeral (0: none). */
    record Node(byte[] data, int version, long owner) {
    }

    static final class Session {
        final long id;
        long lastHeard;
        boolean alive = true;

        Session(long id, long lastHeard) {
            this.id = id;
            this.lastHeard = lastHeard;
        }
    }

    private final LongSupplier clock;
    private final Duration sessionTimeout;
    private final ZkLayout layout;
    final TreeMap<String, Node> nodes = new TreeMap<>();
    private final Map<String, Long> sequences = new HashMap<>();
    private final Map<Long, Session> sessions = new HashMap<>();
    /** The latch: clients in the order they joined; the first leads. */
    final List<MemoryCoordination> election = new ArrayList<>();
    final List<MemoryCoordination> clients = new ArrayList<>();
    private long nextSession = 1;
    private boolean up = true;

    public MemoryEnsemble(LongSupplier clock, Duration sessionTimeout, ZkLayout layout) {
        this.clock = clock;
        this.sessionTimeout = sessionTimeout;
        this.layout = layout;
        nodes.put("/", new Node(new byte[0], 0, 0));
    }

    public long now() {
        return clock.getAsLong();
    }

    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    public ZkLayout layout() {
        return layout;
    }

    /** A new client of this ensemble; it connects on {@link Coordination#start}. */
    public MemoryCoordination client(String name) {
        MemoryCoordination client = new MemoryCoordination(this, name);
        clients.add(client);
        return client;
    }

    public boolean up() {
        return up;
    }

    /** Stops the ensemble: every request fails, nothing is heard, no session expires meanwhile. */
    public synchronized void stop() {
        up = false;
        for (MemoryCoordination client : clients) {
            client.reset();
        }
    }

    /** Starts it again: sessions get a whole timeout from now, as after a ZooKeeper restart. */
    public synchronized void start() {
        up = true;
        for (Session session : sessions.values()) {
            session.lastHeard = now();
        }
    }

    /** The epoch record's version now (-1 before the first claim). */
    public synchronized int epochVersion() {
        Node node = nodes.get(layout.epoch());
        return node == null ? -1 : node.version();
    }

    /** A client that only reads, never faulted and not in the election (a test's view of the ensemble). */
    public MemoryCoordination observer() {
        MemoryCoordination observer = new MemoryCoordination(this, "observer");
        observer.observe();
        return observer;
    }

    /** The epoch now (0 before the first claim). */
    public synchronized long epoch() {
        Node node = nodes.get(layout.epoch());
        return node == null ? 0 : ByteBuffer.wrap(node.data()).getLong();
    }

    /** Expires the sessions not heard from for the timeout, then lets each client notice what it can. */
    public synchronized void advance() {
        if (up) {
            for (Session session : new ArrayList<>(sessions.values())) {
                if (session.alive && now() - session.lastHeard > sessionTimeout.toNanos()) {
                    expire(session);
                }
            }
        }
        for (MemoryCoordination client : new ArrayList<>(clients)) {
            client.poll();
        }
        elect();
    }

    // ---------------------------------------------------------------- sessions

    synchronized Session open() {
        Session session = new Session(nextSession++, now());
        sessions.put(session.id, session);
        return session;
    }

    synchronized void heard(Session session) {
        if (session != null && session.alive) {
            session.lastHeard = now();
        }
    }

    synchronized void close(Session session) {
        if (session != null && session.alive) {
            expire(session);
        }
    }

    private void expire(Session session) {
        session.alive = false;
        sessions.remove(session.id);
        nodes.values().removeIf(node -> node.owner() == session.id);
        election.removeIf(client -> client.session() == session);
        elect();
    }

    // ---------------------------------------------------------------- the latch

    synchronized void join(MemoryCoordination client) {
        election.remove(client);
        election.add(client);
        elect();
    }

    synchronized void leave(MemoryCoordination client) {
        election.remove(client);
        elect();
    }

    /** Tells the first of the election that it leads, and any other that thought so that it does not. */
    void elect() {
        for (int i = 0; i < election.size(); i++) {
            MemoryCoordination client = election.get(i);
            client.leadership(i == 0);
        }
    }

    // ---------------------------------------------------------------- requests

    synchronized byte[] read(String path) {
        Node node = nodes.get(path);
        return node == null ? null : node.data().clone();
    }

    synchronized List<String> children(String path) {
        String prefix = path.equals("/") ? "/" : path + "/";
        List<String> names = new ArrayList<>();
        for (String key : nodes.tailMap(prefix, false).keySet()) {
            if (!key.startsWith(prefix)) {
                break;
            }
            String rest = key.substring(prefix.length());
            if (!rest.isEmpty() && rest.indexOf('/') < 0) {
                names.add(rest);
            }
        }
        return names;
    }

    synchronized void ensurePath(String path) {
        StringBuilder at = new StringBuilder();
        for (String part : path.substring(1).split("/")) {
            at.append('/').append(part);
            nodes.putIfAbsent(at.toString(), new Node(new byte[0], 0, 0));
        }
    }

    synchronized Epoch claimEpoch() {
        ensurePath(parent(layout.epoch()));
        Node node = nodes.get(layout.epoch());
        long next = (node == null ? 0 : ByteBuffer.wrap(node.data()).getLong()) + 1;
        int version = node == null ? 0 : node.version() + 1;
        nodes.put(layout.epoch(), new Node(ByteBuffer.allocate(8).putLong(next).array(), version, 0));
        return new Epoch(next, version);
    }

    /** Applies the writes after the epoch check, all or nothing. */
    synchronized List<String> write(Session session, Epoch epoch, List<Coordination.Write> writes) throws CoordinationException {
        Node current = nodes.get(layout.epoch());
        if (current == null || current.version() != epoch.version()) {
            throw new CoordinationException(CoordinationException.Kind.FENCED, "the twin refused the write of epoch "
                    + epoch.number() + ": a newer leader claimed the epoch", null);
        }
        TreeMap<String, Node> after = new TreeMap<>(nodes);
        Map<String, Long> counters = new HashMap<>(sequences);
        List<String> created = new ArrayList<>();
        for (Coordination.Write write : writes) {
            if (write instanceof Coordination.Create create) {
                String parent = parent(create.path());
                String path = create.path();
                if (create.sequential()) {
                    long next = counters.getOrDefault(parent, 0L);
                    counters.put(parent, next + 1);
                    path = path + String.format("%010d", next);
                }
                if (!after.containsKey(parent)) {
                    throw refused("no parent for " + path);
                }
                if (after.containsKey(path)) {
                    throw refused(path + " exists");
                }
                after.put(path, new Node(create.data().clone(), 0, create.ephemeral() ? session.id : 0));
                created.add(path);
            } else if (write instanceof Coordination.Put put) {
                Node node = after.get(put.path());
                if (node == null) {
                    throw refused("no node " + put.path());
                }
                after.put(put.path(), new Node(put.data().clone(), node.version() + 1, node.owner()));
            } else {
                if (!after.containsKey(write.path())) {
                    throw refused("no node " + write.path());
                }
                String prefix = write.path() + "/";
                String next = after.higherKey(write.path());
                if (next != null && next.startsWith(prefix)) {
                    throw refused(write.path() + " has children");
                }
                after.remove(write.path());
            }
        }
        nodes.clear();
        nodes.putAll(after);
        sequences.clear();
        sequences.putAll(counters);
        return created;
    }

    private static CoordinationException refused(String why) {
        return new CoordinationException(CoordinationException.Kind.REFUSED, "the twin refused the write: " + why, null);
    }

    static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }
}
