package io.grove.core.operation;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Copied task queues and counts, waiting for the running jobs captured with them. */
public final class ProgressCapture {

    private final Map<String, PendingIndexes> queues;
    private final int completed;
    private final int failed;
    private final int aborted;

    ProgressCapture(Map<String, PendingIndexes> queues, int completed, int failed, int aborted) {
        this.queues = queues;
        this.completed = completed;
        this.failed = failed;
        this.aborted = aborted;
    }

    /**
     * The progress, with {@code running} (the operation's running jobs when captured, in start
     * order): one pass over the jobs, their indexes gathered per task without boxing.
     */
    public Operation.Progress progress(Iterable<Job> running) {
        String[] names = queues.keySet().toArray(new String[0]);
        int[][] indexes = new int[names.length][];
        int[] counts = new int[names.length];
        for (Job job : running) {
            int t = taskOf(names, job.task().name());
            if (t < 0) {
                continue;
            }
            int[] list = indexes[t];
            if (list == null || counts[t] == list.length) {
                list = list == null ? new int[16] : Arrays.copyOf(list, 2 * list.length);
                indexes[t] = list;
            }
            list[counts[t]++] = job.index();
        }
        Map<String, PendingIndexes.State> tasksState = new LinkedHashMap<>();
        for (int t = 0; t < names.length; t++) {
            int[] list = indexes[t] == null ? new int[0] : indexes[t];
            tasksState.put(names[t], queues.get(names[t]).state(list, counts[t]));
        }
        return new Operation.Progress(tasksState, completed, failed, aborted);
    }

    /** Where {@code name} is among the task names (the same string, as a rule), or -1. */
    private static int taskOf(String[] names, String name) {
        for (int t = 0; t < names.length; t++) {
            if (names[t] == name) {
                return t;
            }
        }
        for (int t = 0; t < names.length; t++) {
            if (names[t].equals(name)) {
                return t;
            }
        }
        return -1;
    }
}
