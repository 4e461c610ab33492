package io.grove.server.coord;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A client of a {@link MemoryEnsemble}, behaving as Curator's does: requests fail with an unknown
 * outcome while the ensemble cannot be reached; the connection is {@code SUSPENDED} after two
 * thirds of the session timeout without an answer and {@code SESSION_LOST} after all of it (or
 * at once when the ensemble says the session expired); on reconnecting the latch joins again at
 * the end, as Curator's LeaderLatch resets. A test partitions it, pauses it (its library stops too),
 * crashes it (its session lives on until it expires), or loses the reply of a request that was applied.
 */
public final class MemoryCoordination implements Coordination {

    private final MemoryEnsemble ensemble;
    private final String name;
    private Consumer<Signal> signals;
    private MemoryEnsemble.Session session;
    private boolean connected;
    private boolean lostSignalled;
    private long lastContact;
    private boolean leadership;
    private boolean inElection;
    private volatile boolean partitioned;
    private volatile boolean paused;
    private boolean crashed;
    private boolean closed;
    private volatile int dropReplies;
    private volatile RuntimeException throwNext;
    private volatile String loseReplyUnder;
    private long interruptions;
    /** The connection was reset (the ensemble restarted): noticed at once, not after a timeout. */
    private boolean reset;

    MemoryCoordination(MemoryEnsemble ensemble, String name) {
        this.ensemble = ensemble;
        this.name = name;
    }

    public String name() {
        return name;
    }

    MemoryEnsemble.Session session() {
        return session;
    }

    // ---------------------------------------------------------------- faults

    /** Cuts the client from the ensemble (or heals it). */
    public void partition(boolean cut) {
        partitioned = cut;
    }

    /** Pauses the whole process, the client library with it (or resumes it). */
    public void pause(boolean stopped) {
        paused = stopped;
    }

    /** The process died: nothing more of it, and its session lives until it expires. */
    public void crash() {
        crashed = true;
        ensemble.clients.remove(this);
    }

    /** The reply of the next write that creates a node under {@code prefix} is lost (the write is applied). */
    public void loseReplyOfNextWriteUnder(String prefix) {
        loseReplyUnder = prefix;
    }

    /** The next write throws {@code failure} (a bug below the log), applying nothing. */
    public void throwOnNextWrite(RuntimeException failure) {
        throwNext = failure;
    }

    /** Resets the connection: the client notices at once (a restarted ensemble, a refused socket). */
    void reset() {
        reset = true;
    }

    /** The next {@code count} requests are applied but their replies are lost (an unknown outcome). */
    public void loseReplies(int count) {
        dropReplies = count;
    }

    public boolean partitioned() {
        return partitioned;
    }

    private boolean reachable() {
        return ensemble.up() && !partitioned && !crashed && !closed;
    }

    private void signal(Signal signal) {
        if (!crashed && !closed && signals != null) {
            signals.accept(signal);
        }
    }

    // ---------------------------------------------------------------- the library's own work

    /** What the client library does by itself: pings, noticing a lost connection or session, reconnecting. */
    void poll() {
        if (paused || crashed || closed || signals == null) {
            return;
        }
        long now = ensemble.now();
        if (reachable()) {
            if (reset && connected) {
                // the ensemble restarted between two polls: the connection was reset all the same
                connected = false;
                interruptions++;
                dropLeadership();
                signal(Signal.SUSPENDED);
            }
            reset = false;
            if (session == null || !session.alive) {
                if (!lostSignalled) {
                    lostSignalled = true;
                    interruptions++;
                    dropLeadership();
                    signal(Signal.SESSION_LOST);
                }
                session = ensemble.open();
                reconnected(now);
            } else if (!connected) {
                reconnected(now);
            } else {
                ensemble.heard(session);
                lastContact = now;
            }
            return;
        }
        Duration timeout = ensemble.sessionTimeout();
        if (connected && (reset || now - lastContact > timeout.toNanos() * 2 / 3)) {
            connected = false;
            interruptions++;
            dropLeadership();
            signal(Signal.SUSPENDED);
        }
        if (!connected && !lostSignalled && now - lastContact > timeout.toNanos()) {
            lostSignalled = true;
            interruptions++;
            signal(Signal.SESSION_LOST);
        }
    }

    private void reconnected(long now) {
        connected = true;
        lostSignalled = false;
        lastContact = now;
        ensemble.heard(session);
        signal(Signal.RECONNECTED);
        if (inElection) {
            ensemble.join(this);
        }
    }

    private void dropLeadership() {
        if (leadership) {
            leadership = false;
            signal(Signal.NOT_ELECTED);
        }
    }

    /** The ensemble's latch says whether this client is first; the client hears it only while it can. */
    void leadership(boolean first) {
        if (paused || crashed || closed || !connected || !reachable()) {
            return;
        }
        if (first && !leadership) {
            leadership = true;
            signal(Signal.ELECTED);
        } else if (!first && leadership) {
            dropLeadership();
        }
    }

    // ---------------------------------------------------------------- requests

    private void request() throws CoordinationException {
        if (closed || crashed) {
            throw new CoordinationException(CoordinationException.Kind.REFUSED, name + " is closed", null);
        }
        if (!reachable()) {
            throw new CoordinationException(CoordinationException.Kind.OUTCOME_UNKNOWN, name
                    + ": the connection was lost", null);
        }
        if (session == null || !session.alive) {
            throw new CoordinationException(CoordinationException.Kind.OUTCOME_UNKNOWN, name
                    + ": the session expired", null);
        }
        ensemble.heard(session);
        lastContact = ensemble.now();
    }

    private void replied() throws CoordinationException {
        if (dropReplies > 0) {
            dropReplies--;
            throw new CoordinationException(CoordinationException.Kind.OUTCOME_UNKNOWN, name
                    + ": the connection was lost before the reply", null);
        }
    }

    /** Connects without joining the election, to read. */
    void observe() {
        session = ensemble.open();
        connected = true;
        lastContact = ensemble.now();
    }

    @Override
    public void start(Consumer<Signal> signals) throws CoordinationException {
        if (!reachable()) {
            throw new CoordinationException(CoordinationException.Kind.OUTCOME_UNKNOWN, name + ": cannot connect", null);
        }
        this.signals = signals;
        session = ensemble.open();
        connected = true;
        lastContact = ensemble.now();
        ensemble.ensurePath(ensemble.layout().log());
        inElection = true;
        ensemble.join(this);
    }

    @Override
    public Duration sessionTimeout() {
        return ensemble.sessionTimeout();
    }

    @Override
    public boolean connected() {
        return connected && reachable() && session != null && session.alive;
    }

    @Override
    public long interruptions() {
        return interruptions;
    }

    @Override
    public void rejoin() throws CoordinationException {
        request();
        leadership = false;
        inElection = true;
        ensemble.join(this);
    }

    @Override
    public Epoch claimEpoch() throws CoordinationException {
        request();
        Epoch epoch = ensemble.claimEpoch();
        replied();
        return epoch;
    }

    @Override
    public void confirm(Epoch epoch) throws CoordinationException {
        write(epoch, List.of());
    }

    @Override
    public List<String> write(Epoch epoch, List<Write> writes) throws CoordinationException {
        RuntimeException failure = throwNext;
        if (failure != null) {
            throwNext = null;
            throw failure;
        }
        request();
        List<String> created = ensemble.write(session, epoch, writes);
        String under = loseReplyUnder;
        if (under != null && writes.stream().anyMatch(w -> w instanceof Create && w.path().startsWith(under))) {
            loseReplyUnder = null;
            throw new CoordinationException(CoordinationException.Kind.OUTCOME_UNKNOWN, name
                    + ": the connection was lost before the reply", null);
        }
        replied();
        return created;
    }

    @Override
    public byte[] read(String path) throws CoordinationException {
        request();
        return ensemble.read(path);
    }

    @Override
    public List<String> children(String path) throws CoordinationException {
        request();
        return ensemble.children(path);
    }

    @Override
    public void ensurePath(String path) throws CoordinationException {
        request();
        ensemble.ensurePath(path);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        inElection = false;
        ensemble.leave(this);
        ensemble.close(session);
        closed = true;
        ensemble.clients.remove(this);
    }
}
