package io.grove.accounting;

import io.grove.core.accounting.HourlyUsage;
import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.OperationRecord;
import java.util.List;
import java.util.Map;

/**
 * What is written in one transaction: job and operation records (each kept once whatever how
 * often it is written), and for each tree metered, the resource-seconds added since the mark the
 * writer last saw and the new mark. The hours of a tree are added only if its mark is still the
 * one expected: a scheduler that lost its lead cannot add them twice.
 *
 * @param marks per tree, the mark expected in the database ({@code -1}: none) and the new one
 */
public record AccountingBatch(List<JobRecord> jobs, List<OperationRecord> operations, List<HourlyUsage> hours,
        Map<String, long[]> marks) {

    public AccountingBatch {
        jobs = List.copyOf(jobs);
        operations = List.copyOf(operations);
        hours = List.copyOf(hours);
        marks = Map.copyOf(marks);
    }

    public boolean isEmpty() {
        return jobs.isEmpty() && operations.isEmpty() && hours.isEmpty() && marks.isEmpty();
    }
}
