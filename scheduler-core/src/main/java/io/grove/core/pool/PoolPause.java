package io.grove.core.pool;

import java.time.Instant;
import java.util.Objects;

/**
 * A pool paused by an administrator: no new job starts in its subtree while the running ones go
 * on; with {@code drain}, the running ones are also stopped gracefully (they end and are not
 * started again while the pause lasts).
 *
 * @param tree the pool's tree
 * @param pool the pool (the root pauses the whole tree)
 * @param drain whether its running jobs are stopped too
 * @param by who paused it
 * @param since when
 */
public record PoolPause(String tree, String pool, boolean drain, String by, Instant since) {

    public PoolPause {
        Objects.requireNonNull(tree);
        Objects.requireNonNull(pool);
        Objects.requireNonNull(since);
    }

    /** What a user is told about it. */
    public String describe() {
        return "pool " + pool + " is " + (drain ? "drained" : "paused") + (by == null ? "" : " by " + by) + " since "
                + since + ": no new jobs start in it" + (drain ? " and its running jobs are stopped" : "");
    }
}
