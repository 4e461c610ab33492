package io.grove.api;

/**
 * {@code POST /api/v1/nodes/{node}/drain}: no new jobs start on the node; with {@code now}, its
 * running jobs are stopped gracefully too (they start again on other nodes). An empty body drains
 * without stopping anything.
 *
 * @param reason why, shown wherever the node is (at most 500 characters)
 * @param now whether its running jobs are stopped too
 */
public record NodeDrainRequest(String reason, Boolean now) {
}
