package io.grove.server.coord;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a high-availability group needs from its coordination service, and nothing more: an
 * election, epochs claimed in turn, writes fenced by the claimed epoch ({@link Fencing}), reads of
 * what the leader wrote, and signals about the member's connection and election. ZooKeeper
 * through Curator is the real one ({@link ZkCoordination}); the tests run the group against an
 * in-memory twin with injected time.
 *
 * <p>Paths are ZooKeeper's: absolute, {@code /}-separated ({@link ZkLayout}).
 */
public interface Coordination extends AutoCloseable {

    /** What the service tells a member, in the order it happened. */
    enum Signal {
        /** This member is first in the election: it may claim an epoch. */
        ELECTED,
        /** This member is no longer first in the election (or cannot know that it is). */
        NOT_ELECTED,
        /** The connection is gone: the session may still live, but nothing this member does is confirmed. */
        SUSPENDED,
        /** The connection is back (with the same session, or a new one after {@link #SESSION_LOST}). */
        RECONNECTED,
        /** The session expired: whatever it held (its place in the election, the leader record) is gone. */
        SESSION_LOST
    }

    /** One step of a fenced write. */
    sealed interface Write {
        String path();
    }

    /**
     * Creates a node; a sequential one gets a counter appended to its name (the created path is
     * returned), an ephemeral one goes when the session that made it ends.
     */
    record Create(String path, byte[] data, boolean sequential, boolean ephemeral) implements Write {
        public Create {
            Objects.requireNonNull(path);
            Objects.requireNonNull(data);
        }

        public static Create persistent(String path, byte[] data) {
            return new Create(path, data, false, false);
        }
    }

    /** Replaces an existing node's data. */
    record Put(String path, byte[] data) implements Write {
    }

    /** Deletes an existing node (one without children). */
    record Delete(String path) implements Write {
    }

    /**
     * Connects and joins the election; signals go to {@code signals}, one at a time in order, and it
     * must not block.
     *
     * @throws CoordinationException if the service cannot be reached within the session timeout
     */
    void start(Consumer<Signal> signals) throws CoordinationException;

    /** The session timeout: the service forgets a member it has not heard from for this long. */
    Duration sessionTimeout();

    /** Whether the connection is up now (the session may be alive even when it is not). */
    boolean connected();

    /**
     * How many times the connection has been lost so far, counted the moment it is noticed (before
     * any signal): a lease holds only while this has not changed since the request that gave it,
     * for once the connection is back the election may already name another member.
     */
    long interruptions();

    /** Leaves the election and joins it again at its end: a member that could not lead lets another. */
    void rejoin() throws CoordinationException;

    /** Claims the epoch after the current one (the first is 1). */
    Epoch claimEpoch() throws CoordinationException;

    /** Checks that {@code epoch} is still the current one, through the service's leader. */
    void confirm(Epoch epoch) throws CoordinationException;

    /**
     * Applies {@code writes} atomically, after checking that {@code epoch} is still current: all or
     * nothing. Returns the paths created, in order.
     */
    List<String> write(Epoch epoch, List<Write> writes) throws CoordinationException;

    /** A node's data, or {@code null} when there is no such node. */
    byte[] read(String path) throws CoordinationException;

    /** A node's children's names (not paths), or none when there is no such node. */
    List<String> children(String path) throws CoordinationException;

    /** Creates {@code path} and its parents where missing, unfenced (containers for the layout). */
    void ensurePath(String path) throws CoordinationException;

    /** Leaves the election and disconnects; ephemeral nodes go at once. */
    @Override
    void close();
}
