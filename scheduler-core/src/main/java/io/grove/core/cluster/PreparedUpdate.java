package io.grove.core.cluster;

import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareWorkspace;
import io.grove.core.operation.Operation;
import java.time.Instant;
import java.util.Map;

/**
 * A fair-share update's input, taken from the live state by {@link Cluster#prepareFairShare}, and
 * the tree's {@code workspace} to compute it in (kept from one update of the tree to the next; one
 * update of a tree at a time). {@code operations} leaves out those that wait for others
 * ({@code depends_on}); {@code neverStart} names, with why, those that never can (aborted when
 * the update is published).
 */
public record PreparedUpdate(String tree, FairShareInput input, Map<String, Operation> operations,
        Map<String, Integer> pendingJobs, double[] total, Instant now, FairShareWorkspace workspace,
        Map<String, String> neverStart) {
}
