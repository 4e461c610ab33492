package io.grove.api;

/**
 * An agent's {@code GET /api/v1/node}: who it is, where its scheduler is, what it offers and runs.
 *
 * @param tags its tags, comma-separated
 * @param resultsNotAcknowledged job results the scheduler has not confirmed yet
 */
public record AgentNodeView(String nodeId, String address, String scheduler, boolean connected, String tags,
        String resources, String offered, String brokerShare, int jobs, int resultsNotAcknowledged, String jobUsers,
        String memoryEnforcement) {
}
