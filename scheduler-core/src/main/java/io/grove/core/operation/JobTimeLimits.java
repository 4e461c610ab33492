package io.grove.core.operation;

import io.grove.core.pool.PoolTimeLimits;
import java.time.Duration;
import java.util.Map;

/** An operation's time limits where it is placed: checked at submission, then each task's job limit. */
final class JobTimeLimits {

    private JobTimeLimits() {
    }

    /** A task asking for more time than its pool allows is refused, naming both. */
    static void check(OperationSpec spec, PoolTimeLimits limits, String tree, String pool) {
        if (limits.maxLimit() == null) {
            return;
        }
        for (TaskSpec task : spec.tasks().values()) {
            if (task.timeLimit() != null && task.timeLimit().compareTo(limits.maxLimit()) > 0) {
                throw new SubmitException(SubmitError.INVALID_SPEC, "task " + task.name() + ": time_limit "
                        + PoolTimeLimits.text(task.timeLimit()) + " is above the max_time_limit "
                        + PoolTimeLimits.text(limits.maxLimit()) + " of pool \"" + pool + "\" in tree \"" + tree + "\"",
                        Map.of("pool_tree", tree, "pool", pool));
            }
        }
    }

    /** Each task's job limit in milliseconds, by position; 0 for none. */
    static long[] byTask(OperationSpec spec, PoolTimeLimits limits) {
        long[] out = new long[spec.tasks().size()];
        int position = 0;
        for (TaskSpec task : spec.tasks().values()) {
            Duration limit = limits.jobLimit(task.timeLimit());
            out[position++] = limit == null ? 0 : limit.toMillis();
        }
        return out;
    }
}
