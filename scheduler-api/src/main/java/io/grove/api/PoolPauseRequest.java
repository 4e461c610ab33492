package io.grove.api;

/**
 * {@code POST /api/v1/pool_trees/{tree}/pools/{pool}/pause}: no new jobs start in the pool's
 * subtree; with {@code drain}, its running jobs are stopped gracefully too. An empty body pauses
 * without draining.
 */
public record PoolPauseRequest(Boolean drain) {
}
