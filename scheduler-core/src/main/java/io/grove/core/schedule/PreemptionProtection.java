package io.grove.core.schedule;

import io.grove.core.operation.Job;
import java.time.Instant;

/**
 * Running jobs of a tree younger than their pool's {@code min_job_runtime_before_preemption}: how
 * many, and when the first may be taken. What an explanation says keeps a starving operation
 * waiting.
 */
public record PreemptionProtection(int jobs, Instant firstFree) {

    /** The jobs that {@code min_job_runtime_before_preemption} keeps from starving operations at {@code now}. */
    public static PreemptionProtection of(SchedulingIndex index, Instant now) {
        int count = 0;
        Instant first = null;
        for (int at = 0; at < index.size; at++) {
            long min = index.rights.minRuntimeMillis[at];
            if (index.operations[at] == null || min <= 0) {
                continue;
            }
            for (Job job : index.operations[at].runningJobs()) {
                Instant free = job.startTime().plusMillis(min);
                if (index.tree.equals(job.tree()) && free.isAfter(now)) {
                    count++;
                    first = first == null || free.isBefore(first) ? free : first;
                }
            }
        }
        return new PreemptionProtection(count, first);
    }
}
