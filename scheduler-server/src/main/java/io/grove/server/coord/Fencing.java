package io.grove.server.coord;

import java.time.Duration;

/**
 * The one rule of a high-availability group, and every number it rests on:
 *
 * <blockquote><b>A write carries the epoch it was claimed under; a refused write steps the
 * scheduler down.</b></blockquote>
 *
 * <p>A scheduler elected by the group claims the next epoch by rewriting the epoch record with a
 * check of its version ({@link Coordination#claimEpoch}); the record's new version is the claim.
 * Every write that leader makes afterwards — log records, snapshots and their pointer, removals,
 * where the leader is — is one atomic request whose first step checks that version
 * ({@link Coordination#write}). Once anyone claims a newer epoch the check fails, the whole
 * request is refused ({@link CoordinationException.Kind#FENCED}), and the refused leader stops.
 *
 * <p>Fencing stops writes; the <b>lease</b> stops what is not a write — answering as the leader,
 * and starting jobs on nodes. A leader acts only while its lease runs: {@link #leaseEnd} after
 * the send time of its last request the service confirmed under its epoch (the claim, or a
 * {@link Coordination#confirm}). The service expires a session no sooner than a whole session
 * timeout after it last heard from it, and nobody can be elected, let alone claim an epoch,
 * before this leader's session expires; a lease of half the session timeout therefore ends
 * before any other scheduler can lead, whatever paused this one (a GC, {@code SIGSTOP}, a
 * partition), with room left for clocks that run at slightly different rates. The leader renews
 * it every {@link #confirmEvery}. A lost connection ends the lease at once
 * ({@link Coordination#interruptions}): once it is back, the election may already have moved on
 * (a reconnected latch joins again at its end) while the session lived. And a new leader that
 * finds an older leader's record still there after its claim (that leader's session lives: it was
 * not elected away by an expiry, but by a member acting on an election it had been told of late)
 * acts only once a lease has passed since the claim, when any lease granted before it has ended.
 */
public final class Fencing {

    private Fencing() {
    }

    /** The lease is this fraction of the session timeout: half, so that it ends well before the session can expire. */
    static final int LEASE_DIVISOR = 2;

    /** Confirmations per lease: a leader renews three times per lease, so one slow answer does not stop it. */
    static final int CONFIRMS_PER_LEASE = 3;

    /**
     * Log records name the batch they belong to (a large batch takes several records): the high
     * bits hold the epoch, so parts of batches of two leaders never read as one batch.
     */
    static final int BATCH_COUNTER_BITS = 32;

    /**
     * Snapshots are numbered so that a newer epoch's are above an older one's: the first of an
     * epoch is its number shifted by this much (a leader may take 2^20 snapshots before it reaches
     * the next epoch's numbers, and even then numbers still grow: {@link #nextSnapshotId}).
     */
    static final int SNAPSHOT_COUNTER_BITS = 20;

    /** The end of the lease that a request sent at {@code sentNanos} and confirmed under the epoch gives. */
    public static long leaseEnd(long sentNanos, Duration sessionTimeout) {
        return sentNanos + sessionTimeout.toNanos() / LEASE_DIVISOR;
    }

    /** How often a leader confirms its epoch, to renew its lease. */
    public static Duration confirmEvery(Duration sessionTimeout) {
        return sessionTimeout.dividedBy(LEASE_DIVISOR * CONFIRMS_PER_LEASE);
    }

    /** The id of the first batch a leader of {@code epoch} writes; later ones count up from it. */
    public static long firstBatchId(Epoch epoch) {
        return epoch.number() << BATCH_COUNTER_BITS;
    }

    /** The id of the snapshot after {@code previous} taken by the leader of {@code epoch}: above both. */
    public static long nextSnapshotId(long previous, Epoch epoch) {
        return Math.max(previous, epoch.number() << SNAPSHOT_COUNTER_BITS) + 1;
    }
}
