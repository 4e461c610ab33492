package io.grove.core.node;

import java.time.Instant;
import java.util.Objects;

/**
 * A node drained by an administrator ({@code grove nodes drain}, like Slurm's {@code
 * state=drain} or {@code kubectl cordon}): no new job starts on it while its running jobs go on;
 * with {@code now}, its running jobs are also stopped gracefully (they start again elsewhere).
 * Kept until the node is undrained, across restarts, whether or not the node is connected.
 *
 * @param node the node's id
 * @param reason why, as the administrator said (may be {@code null})
 * @param now whether its running jobs are stopped too
 * @param by who drained it
 * @param since when
 */
public record NodeDrain(String node, String reason, boolean now, String by, Instant since) {

    /** The longest reason kept. */
    public static final int MAX_REASON = 500;

    public NodeDrain {
        Objects.requireNonNull(node);
        Objects.requireNonNull(since);
        reason = reason == null || reason.isBlank() ? null : reason.strip();
        if (reason != null && reason.length() > MAX_REASON) {
            reason = reason.substring(0, MAX_REASON);
        }
    }

    /** What a user is told about it. */
    public String describe() {
        return "node " + node + " is drained" + (by == null ? "" : " by " + by) + " since " + since
                + (reason == null ? "" : " (" + reason + ")") + ": no new jobs start on it"
                + (now ? " and its running jobs are stopped" : "");
    }
}
