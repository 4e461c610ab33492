package io.grove.core.schedule;

import io.grove.core.preempt.PreemptionStatus;
import io.grove.core.preempt.StarvationStatus;

/** The two preemptive stages: which starving operations each serves, and which jobs it may take for them. */
enum PreemptionStage {
    AGGRESSIVE(StarvationStatus.AGGRESSIVELY_STARVING, PreemptionStatus.AGGRESSIVELY_PREEMPTIBLE,
            Decision.PreemptionReason.AGGRESSIVE_STARVATION),
    NORMAL(StarvationStatus.STARVING, PreemptionStatus.PREEMPTIBLE, Decision.PreemptionReason.STARVATION);

    final StarvationStatus targets;
    final PreemptionStatus victims;
    final Decision.PreemptionReason reason;

    PreemptionStage(StarvationStatus targets, PreemptionStatus victims, Decision.PreemptionReason reason) {
        this.targets = targets;
        this.victims = victims;
        this.reason = reason;
    }

    /** The stage that serves an operation starving so: aggressive for the aggressively starving, else normal. */
    static PreemptionStage serving(StarvationStatus status) {
        return status.compareTo(AGGRESSIVE.targets) >= 0 ? AGGRESSIVE : NORMAL;
    }
}
