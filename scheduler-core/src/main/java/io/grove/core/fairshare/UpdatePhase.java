package io.grove.core.fairshare;

/**
 * The steps of one fair-share update, in order, as {@link FairShareUpdate#run(FairShareInput,
 * PhaseListener)} reports them when each is done (see docs/fair-share.md#the-steps).
 */
public enum UpdatePhase {
    /** The pools and the operations' elements, made from the input. */
    ELEMENTS,
    /** Strong guarantees inferred, integral state restored, cumulative attributes bottom-up. */
    ATTRIBUTES,
    /** Integral volumes consumed and refilled, guarantees validated, the functions' resources chosen. */
    GUARANTEES,
    /** Burst, then relaxed integral shares. */
    INTEGRAL_SHARES,
    /** The fair-share functions, bottom-up. */
    FUNCTIONS,
    /** The fair share distributed from the root, and the promised guarantee fair shares. */
    DISTRIBUTION,
    /** The result made from the elements. */
    RESULT;

    /** Told when each phase of an update is done; the update itself keeps no clock. */
    @FunctionalInterface
    public interface PhaseListener {
        /** Listens to nothing. */
        PhaseListener NONE = phase -> { };

        void done(UpdatePhase phase);
    }
}
