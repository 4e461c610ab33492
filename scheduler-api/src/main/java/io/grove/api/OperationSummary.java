package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * An operation in lists and as the answer to a submit or an abort.
 *
 * @param pools the pool of each of its trees
 * @param pendingReason why it waits, when it does
 * @param fairShare its fair share of its first tree (dominant resource), once fair shares include it
 * @param starvation {@code non_starving}, {@code starving} or {@code aggressively_starving}
 */
public record OperationSummary(String id, String user, @JsonInclude(JsonInclude.Include.ALWAYS) String title,
        String state, Map<String, String> pools, Progress progress, @Timestamp String submittedAt, @Timestamp String finishedAt,
        PendingReason pendingReason, Double fairShare, Double usageShare, Double demandShare, String starvation,
        Shortfall shortfall, @Timestamp String expectedStart) {

    /** A summary without a predicted start (asked for with {@code ?forecast=true}). */
    public OperationSummary(String id, String user, String title, String state, Map<String, String> pools,
            Progress progress, String submittedAt, String finishedAt, PendingReason pendingReason, Double fairShare,
            Double usageShare, Double demandShare, String starvation, Shortfall shortfall) {
        this(id, user, title, state, pools, progress, submittedAt, finishedAt, pendingReason, fairShare, usageShare,
                demandShare, starvation, shortfall, null);
    }

    /** This summary with the likely start of its next waiting job. */
    public OperationSummary withExpectedStart(String at) {
        return new OperationSummary(id, user, title, state, pools, progress, submittedAt, finishedAt, pendingReason,
                fairShare, usageShare, demandShare, starvation, shortfall, at);
    }

    public boolean finished() {
        return state.equals("completed") || state.equals("failed") || state.equals("aborted");
    }
}
