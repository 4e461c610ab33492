package io.grove.accounting;

import java.util.List;

/**
 * What {@code grove jobs history} asks: ended jobs, the latest first.
 *
 * @param sinceMs ended at or after; {@code untilMs} before
 * @param visibleUser with {@code visiblePools}: what the reader may see, their own jobs and those
 *     in the pools they administer and below them ({@code tree:path}, the path from the root as
 *     {@code a/b}); both {@code null}: everything
 * @param beforeEndMs with {@code beforeJob}, the cursor: jobs that come after this one in the order
 * @param limit at most this many
 */
public record JobQuery(String user, String tree, String pool, String state, String operation, long sinceMs, long untilMs,
        String visibleUser, List<String> visiblePools, Long beforeEndMs, String beforeJob, int limit) {

    public JobQuery {
        visiblePools = visiblePools == null ? null : List.copyOf(visiblePools);
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
    }
}
