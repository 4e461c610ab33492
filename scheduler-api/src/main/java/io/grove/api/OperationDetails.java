package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/operations/{id}}: the summary's fields, its spec's settings, why it ended, and
 * what it has in each of its trees.
 *
 * @param fairShareStarvationTimeout its own timeout as written in specs ({@code 60.0s}), when its spec sets one
 * @param message why it failed or was aborted
 * @param images the container image of each task that runs in one ({@code docker_image}); absent for none
 * @param gang for a gang: its plan, its ranks' nodes and why it waits; absent for other operations
 */
public record OperationDetails(
        @JsonUnwrapped OperationSummary summary,
        String type,
        double weight,
        String preemptionMode,
        int maxFailedJobCount,
        Double fairShareStarvationTolerance,
        String fairShareStarvationTimeout,
        Amounts nonPreemptibleResourceUsageThreshold,
        String message,
        Map<String, InTree> trees,
        List<Alert> alerts,
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        Map<String, String> images,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        GangView gang) {

    /** The operation in one tree: its pool, usage and demand, and its shares once fair shares include it. */
    public record InTree(String pool, String schedulingTagFilter, boolean running, Amounts usage, Amounts demand,
            PendingReason pendingReason, ElementView shares, String starvation) {
    }

    /** Something a user should know, e.g. {@code operation_pending} with the reason. */
    public record Alert(String code, String message) {
    }
}
