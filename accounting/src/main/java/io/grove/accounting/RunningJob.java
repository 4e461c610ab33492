package io.grove.accounting;

import io.grove.core.resource.Resources;

/**
 * A job that runs now, as a usage report counts it: what it holds from its start up to now.
 *
 * @param poolPath its pool's path from the root ({@code a/b/c}, the root left out)
 * @param pool its pool
 */
public record RunningJob(String jobId, String operationId, String user, String tree, String pool, String poolPath,
        Resources resources, long startMs) {
}
