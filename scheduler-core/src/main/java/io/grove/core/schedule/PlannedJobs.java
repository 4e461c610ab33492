package io.grove.core.schedule;

import io.grove.core.operation.Operation;
import java.util.function.IntPredicate;

/**
 * What one heartbeat's decision has planned so far: jobs per operation and per task position,
 * so that the descent knows what is left to plan without changing the operations. Cleared by the
 * decision's undo.
 */
final class PlannedJobs {

    private final Operation[] operations;
    private final int[] planned;
    private final int[][] plannedTasks;

    PlannedJobs(Operation[] operations) {
        this.operations = operations;
        this.planned = new int[operations.length];
        this.plannedTasks = new int[operations.length][];
    }

    /** Jobs of operation {@code operation} planned in the current decision. */
    int count(int operation) {
        return planned[operation];
    }

    /** Jobs planned in the current decision per task position of an operation, or {@code null}. */
    int[] plannedTasks(int operation) {
        return plannedTasks[operation];
    }

    /** Counts one planned job of the task at {@code position}. */
    void planTask(int operation, int position) {
        int[] counts = plannedTasks[operation];
        if (counts == null) {
            counts = new int[operations[operation].taskCount()];
            plannedTasks[operation] = counts;
        }
        counts[position]++;
        planned[operation]++;
    }

    /** Forgets what the current decision planned for an operation. */
    void clearPlanned(int operation) {
        plannedTasks[operation] = null;
        planned[operation] = 0;
    }

    /** Jobs of the task at {@code position} left to plan in the current decision. */
    int left(Operation op, int operation, int position) {
        int[] counts = plannedTasks[operation];
        return op.pendingJobCount(position) - (counts == null ? 0 : counts[position]);
    }

    /**
     * The position of the first task (spec order) with a job left to plan that fits {@code room}
     * and whose disk order fits {@code disk}, on a node that runs container images or not, or -1.
     */
    int taskFitting(int operation, double[] room, long disk, boolean images) {
        return taskFitting(operation, room, disk, images, null);
    }

    /** As above, among the tasks {@code allowed} takes (by position); {@code null} takes every one. */
    int taskFitting(int operation, double[] room, long disk, boolean images, IntPredicate allowed) {
        Operation op = operations[operation];
        for (int t = 0; t < op.taskCount(); t++) {
            if (left(op, operation, t) > 0 && Fits.fits(op.jobVector(t), room) && (allowed == null || allowed.test(t))
                    && op.task(t).diskSpace() <= disk && (images || op.task(t).image() == null)) {
                return t;
            }
        }
        return -1;
    }

    /** The smallest job (component-wise) left to plan, or {@code null}. */
    double[] smallestJob(int operation) {
        Operation op = operations[operation];
        double[] min = null;
        for (int t = 0; t < op.taskCount(); t++) {
            if (left(op, operation, t) <= 0) {
                continue;
            }
            double[] job = op.jobVector(t);
            if (min == null) {
                min = job.clone();
            } else {
                for (int r = 0; r < min.length; r++) {
                    min[r] = Math.min(min[r], job[r]);
                }
            }
        }
        return min;
    }
}
