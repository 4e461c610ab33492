package io.grove.core.forecast;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What one draw takes once for all the jobs of one task of an operation, since a task's jobs are
 * alike while operations differ: a duration drawn from what is known of them, and where in a range
 * they fall (how far overdue jobs run on, where within their time limit jobs of unknown length end).
 */
final class TaskDraws {

    /** The ranges a task's jobs are placed in by one fraction each. */
    enum Range {
        /** How much longer an overdue job runs, or which longer duration seen it takes. */
        OVERDUE,
        /** Where within its time limit a job of unknown length ends. */
        WITHIN_LIMIT
    }

    private final SplittableRandom random;
    private final Map<String, Long> durations = new HashMap<>();
    private final Map<String, Double> fractions = new HashMap<>();

    TaskDraws(SplittableRandom random) {
        this.random = random;
    }

    /** The duration of the task's jobs in this draw, drawn from {@code source} the first time. */
    long duration(String operationId, String task, Durations known, Durations.Source source) {
        return durations.computeIfAbsent(operationId + "/" + task, key -> known.drawTask(source, random));
    }

    /** Where in {@code range} the task's jobs fall in this draw: a fraction in [0, 1), drawn evenly the first time. */
    double fraction(Range range, String operationId, String task) {
        return fractions.computeIfAbsent(range + ":" + operationId + "/" + task, key -> random.nextDouble());
    }
}
