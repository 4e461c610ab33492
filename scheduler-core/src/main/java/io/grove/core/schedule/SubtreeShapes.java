package io.grove.core.schedule;

import io.grove.core.operation.Operation;
import java.util.Arrays;

/**
 * Per element of a {@link SchedulingIndex}, what is left below it in the current decision: how
 * many of its operations are active, and the component-wise minimum of their jobs left to plan
 * ({@code +∞} when none). A subtree whose minimum does not fit in what is free on the node can
 * start nothing there, so the descent deactivates it whole — and a full node skips the descent.
 * Kept by the same walk up the path that keeps the cached satisfactions.
 */
final class SubtreeShapes {

    private static final int N = SchedulingIndex.N;
    private static final double NONE = Double.POSITIVE_INFINITY;

    final double[] minJob;
    final int[] activeCount;
    private final double[] scratch = new double[N];

    SubtreeShapes(int size) {
        this.minJob = new double[size * N];
        this.activeCount = new int[size];
    }

    /** Whether the smallest job left below element {@code at} fits in {@code free}. */
    boolean mayFit(int at, double[] free) {
        return Fits.fits(minJob, at * N, free);
    }

    /**
     * Recomputes one element from its own state (an operation) or its children's (a pool; none
     * when the pool is deactivated for the decision); whether anything changed.
     */
    boolean recompute(SchedulingIndex index, int at) {
        int oldCount = activeCount[at];
        Arrays.fill(scratch, NONE);
        Operation op = index.operations[at];
        if (op != null) {
            boolean active = index.isActive(at);
            activeCount[at] = active ? 1 : 0;
            for (int t = 0; active && t < op.taskCount(); t++) {
                if (index.plans.left(op, at, t) > 0) {
                    lower(op.jobVector(t), 0);
                }
            }
        } else if (index.deactivated[at]) {
            activeCount[at] = 0;
        } else {
            ChildTree children = index.childTree(at);
            if (children != null) {
                activeCount[at] = children.activeCount();
                children.copyMinJob(scratch, 0);
            } else {
                activeCount[at] = 0;
            }
        }
        boolean changed = oldCount != activeCount[at];
        int base = at * N;
        for (int r = 0; r < N; r++) {
            if (minJob[base + r] != scratch[r]) {
                minJob[base + r] = scratch[r];
                changed = true;
            }
        }
        return changed;
    }

    private void lower(double[] values, int offset) {
        for (int r = 0; r < N; r++) {
            scratch[r] = Math.min(scratch[r], values[offset + r]);
        }
    }
}
