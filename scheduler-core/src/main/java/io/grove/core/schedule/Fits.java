package io.grove.core.schedule;

import io.grove.core.resource.ResourceType;

/** Whether resources fit into room, component by component, with the scheduler's one tolerance. */
final class Fits {

    private static final int N = ResourceType.COUNT;

    private Fits() {
    }

    /** Whether job resources fit into {@code room}. */
    static boolean fits(double[] job, double[] room) {
        return fits(job, 0, room);
    }

    /** Whether the job at {@code offset} of {@code jobs} fits into {@code room}. */
    static boolean fits(double[] jobs, int offset, double[] room) {
        for (int r = 0; r < N; r++) {
            if (jobs[offset + r] > room[r] + 1e-9) {
                return false;
            }
        }
        return true;
    }
}
