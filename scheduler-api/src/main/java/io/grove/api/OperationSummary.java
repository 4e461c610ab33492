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
        String state, Map<String, String> pools, Progress progress, String submittedAt, String finishedAt,
        PendingReason pendingReason, Double fairShare, Double usageShare, Double demandShare, String starvation,
        Shortfall shortfall) {

    public boolean finished() {
        return state.equals("completed") || state.equals("failed") || state.equals("aborted");
    }
}
