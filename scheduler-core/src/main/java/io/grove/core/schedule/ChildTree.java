package io.grove.core.schedule;

import java.util.Arrays;
import java.util.List;

/**
 * A pool's children's cached values in a tournament tree, so that a change of one child costs
 * {@code O(log children)} instead of a pass over all of them: the smallest satisfaction (and the
 * leftmost child that has it, or the leftmost active one), the sum of active operations, and the
 * component-wise smallest job. Minimums and sums of the same values in another order are the same
 * numbers, so the index decides exactly as with a pass. Leaf {@code i} is the pool's child at
 * position {@code i}; a leaf always holds what that child has cached.
 */
final class ChildTree {

    private static final double INACTIVE = Double.POSITIVE_INFINITY;
    private static final int N = SchedulingIndex.N;

    private final int leaves;
    private final double[] satisfaction;
    private final int[] count;
    private final double[] job;

    ChildTree(int children) {
        int size = 1;
        while (size < children) {
            size <<= 1;
        }
        this.leaves = size;
        this.satisfaction = new double[2 * size];
        this.count = new int[2 * size];
        this.job = new double[2 * size * N];
        Arrays.fill(satisfaction, INACTIVE);
        Arrays.fill(job, Double.POSITIVE_INFINITY);
    }

    /** Sets child {@code position}'s satisfaction; the root's minimum follows. */
    void setSatisfaction(int position, double value) {
        assert !Double.isNaN(value) : "a satisfaction is NaN";
        int node = leaves + position;
        satisfaction[node] = value;
        for (node >>= 1; node >= 1; node >>= 1) {
            satisfaction[node] = Math.min(satisfaction[2 * node], satisfaction[2 * node + 1]);
        }
    }

    /** Sets child {@code position}'s active count and smallest job ({@code jobs[offset .. offset + N)}). */
    void setShape(int position, int active, double[] jobs, int offset) {
        int node = leaves + position;
        count[node] = active;
        System.arraycopy(jobs, offset, job, node * N, N);
        for (node >>= 1; node >= 1; node >>= 1) {
            int left = 2 * node;
            int right = left + 1;
            count[node] = count[left] + count[right];
            for (int r = 0; r < N; r++) {
                job[node * N + r] = Math.min(job[left * N + r], job[right * N + r]);
            }
        }
    }

    /** The smallest satisfaction of the children; +∞ when none is active. */
    double minSatisfaction() {
        return satisfaction[1];
    }

    /** The position of the leftmost child with the smallest satisfaction, or -1 when none is active. */
    int leftmostBest() {
        double best = satisfaction[1];
        if (!(best < INACTIVE)) {
            return -1;
        }
        int node = 1;
        while (node < leaves) {
            node = satisfaction[2 * node] == best ? 2 * node : 2 * node + 1;
        }
        return node - leaves;
    }

    /** The position of the leftmost active child, or -1 when none is. */
    int leftmostActive() {
        if (!(satisfaction[1] < INACTIVE)) {
            return -1;
        }
        int node = 1;
        while (node < leaves) {
            node = satisfaction[2 * node] < INACTIVE ? 2 * node : 2 * node + 1;
        }
        return node - leaves;
    }

    /** The satisfaction of the child at {@code position}. */
    double satisfactionAt(int position) {
        return satisfaction[leaves + position];
    }

    int activeCount() {
        return count[1];
    }

    /** Copies the smallest job of the children into {@code into[offset .. offset + N)}. */
    void copyMinJob(double[] into, int offset) {
        System.arraycopy(job, N, into, offset, N);
    }

    /**
     * Each element's children as {@code [child, fifoIndex]} pairs in tree order, made into arrays; a
     * pool scheduled in FIFO order has its children sorted by FIFO index.
     */
    static int[][] ordered(List<List<int[]>> childLists, boolean[] fifoScheduling) {
        int[][] children = new int[childLists.size()][];
        for (int i = 0; i < children.length; i++) {
            List<int[]> list = childLists.get(i);
            if (fifoScheduling[i]) {
                list.sort((a, b) -> Integer.compare(a[1], b[1]));
            }
            int[] ordered = new int[list.size()];
            for (int c = 0; c < ordered.length; c++) {
                ordered[c] = list.get(c)[0];
            }
            children[i] = ordered;
        }
        return children;
    }
}
