package io.grove.server.ha;

import io.grove.server.coord.Epoch;

/**
 * What {@link RoleEffects} needs of the process it runs in: the daemon ({@link HaScheduler}) or the
 * simulation's model of one. Everything else an effect does — claiming, writing and withdrawing the
 * leader's record, confirming, rejoining, and the order of those steps — is {@link RoleEffects}'
 * own code, the same in both.
 */
interface RolePort {

    /** Monotonic time in nanoseconds. */
    long nanos();

    /**
     * Reads what the log holds under {@code epoch} and starts leading (the daemon, its endpoints
     * routed to it); returns the record that tells clients and nodes where it is.
     *
     * @throws Exception when it cannot lead; a fencing refusal is a {@code CoordinationException}
     */
    LeaderRecord start(Epoch epoch) throws Exception;

    /** It leads and its record is written: it may name itself the leader. */
    void recovered(LeaderRecord record);

    /** Stops leading at once, writing nothing more (no snapshot): a newer leader may exist. */
    void stepDown(String why);

    /** Stops leading with a final snapshot: a clean close. */
    void resign();

    /** Hands an event to the role later, on its own thread (the answer of a confirmation, a write's refusal). */
    void post(RoleMachine.Event event);

    /** Runs a lease's confirmation away from the role's thread; its answer comes back by {@link #post}. */
    void confirmAside(Runnable confirmation);

    /** Whether the process is closing: it rejoins no election then. */
    default boolean closing() {
        return false;
    }

    /** An epoch was claimed (the simulation keeps them all to check that no two leaders write). */
    default void claimed(Epoch epoch) {
    }
}
