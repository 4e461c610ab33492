package io.grove.core.forecast;

import io.grove.core.operation.TaskSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a forecast of one operation rests on, in words a user can check: how long its own jobs and
 * the jobs ahead of it are taken to run and where that comes from, which running jobs are overdue,
 * and why parts of it are unknown.
 *
 * @param assumptions what was assumed
 * @param unknown why the operation's own jobs' durations are unknown, per task
 */
record ForecastBasis(Set<String> assumptions, Set<String> unknown) {

    /** The most operations ahead named, and the most overdue jobs. */
    static final int NAMED = 4;

    static ForecastBasis of(ForecastSnapshot snapshot, ForecastSnapshot.OperationState own) {
        Set<String> assumptions = new LinkedHashSet<>();
        Set<String> unknown = new LinkedHashSet<>();
        for (TaskSpec task : own.spec().tasks().values()) {
            Durations.Source source = StartForecast.source(snapshot, own, task.name());
            if (source == null) {
                unknown.add("no job like task " + task.name() + " of " + own.id() + " has finished yet and its spec gives "
                        + "no expected_duration, so how long its jobs run is unknown");
            } else {
                assumptions.add("task " + task.name() + " of " + own.id() + ": about " + StartForecast.human(source.median())
                        + " a job (from " + source.says() + ")");
            }
        }
        int ahead = 0;
        for (ForecastSnapshot.OperationState operation : snapshot.operations()) {
            if (operation.id().equals(own.id())) {
                break;
            }
            ahead++;
        }
        int arriving = snapshot.arrivals().count();
        assumptions.add(ahead + " unfinished operation(s) submitted before it; running jobs end after their expected "
                + "remaining time; the likely start assumes no new submissions, the latest "
                + (arriving == 0 ? "too (none in the last hour)" : "that they go on as in the last hour (" + arriving + ")"));
        ahead(snapshot, own, assumptions);
        overdue(snapshot, assumptions);
        boolean stopping = snapshot.operations().stream().anyMatch(o -> o.running().stream().anyMatch(j -> j.stopsBy() != null));
        if (stopping || snapshot.durations().gracefulStopsSeen() > 0) {
            assumptions.add(snapshot.durations().graceSays());
        }
        String differ = snapshot.durations().operationsDifferSays();
        if (differ != null) {
            assumptions.add(differ);
        }
        return new ForecastBasis(assumptions, unknown);
    }

    /**
     * The jobs ahead: every other operation with running jobs, and those submitted before it with
     * jobs waiting, each task with where its durations come from (the first {@value #NAMED}).
     */
    private static void ahead(ForecastSnapshot snapshot, ForecastSnapshot.OperationState own, Set<String> into) {
        boolean before = true;
        int named = 0;
        int more = 0;
        for (ForecastSnapshot.OperationState operation : snapshot.operations()) {
            if (operation.id().equals(own.id())) {
                before = false;
                continue;
            }
            Map<String, Integer> running = new LinkedHashMap<>();
            operation.running().forEach(job -> running.merge(job.task(), 1, Integer::sum));
            if (running.isEmpty() && !before) {
                continue;
            }
            if (named == NAMED) {
                more++;
                continue;
            }
            named++;
            List<String> tasks = new ArrayList<>();
            for (TaskSpec task : operation.spec().tasks().values()) {
                Durations.Source source = StartForecast.source(snapshot, operation, task.name());
                int runs = running.getOrDefault(task.name(), 0);
                tasks.add("task " + task.name() + (runs == 0 ? "" : " (" + runs + " running)") + ": " + (source == null
                        ? "unknown (no job like it finished, no expected_duration; with a time limit, taken to end "
                                + "any time before it)"
                        : "about " + StartForecast.human(source.median()) + " a job (from " + source.says() + ")"));
            }
            into.add("ahead, " + operation.id() + " of " + operation.user() + " in " + operation.pool() + ": "
                    + String.join("; ", tasks));
        }
        if (more > 0) {
            into.add("and " + more + " more operation(s) ahead");
        }
    }

    /** The running jobs that ran longer than any like them, named (the first {@value #NAMED}). */
    private static void overdue(ForecastSnapshot snapshot, Set<String> into) {
        int named = 0;
        int more = 0;
        for (ForecastSnapshot.OperationState operation : snapshot.operations()) {
            for (ForecastSnapshot.JobState job : operation.running()) {
                Durations.Source source = StartForecast.source(snapshot, operation, job.task());
                if (source == null || job.started() == null) {
                    continue;
                }
                Duration ran = Duration.between(job.started(), snapshot.now());
                if (ran.toMillis() <= source.longest()) {
                    continue;
                }
                if (named == NAMED) {
                    more++;
                    continue;
                }
                named++;
                into.add("overdue: job " + job.jobId() + " of " + operation.id() + " has run " + StartForecast.human(ran)
                        + ", longer than " + StartForecast.human(Duration.ofMillis(source.longest())) + " (from "
                        + source.says() + "); it is taken to run on for up to as long again");
            }
        }
        if (more > 0) {
            into.add("and " + more + " more overdue job(s)");
        }
    }

    /**
     * Why an operation that never started in any draw cannot be told, when jobs ran there without
     * an end that can be told; {@code null} when none did.
     */
    static String blocked(List<ForecastDraw.Run> runs, String own) {
        Map<String, Set<String>> endless = new LinkedHashMap<>();
        for (ForecastDraw.Run run : runs) {
            run.endless().forEach((operation, tasks) -> endless.computeIfAbsent(operation, o -> new LinkedHashSet<>())
                    .addAll(tasks));
        }
        if (endless.isEmpty()) {
            return null;
        }
        List<String> named = new ArrayList<>();
        endless.forEach((operation, tasks) -> named.add((operation.equals(own) ? "its own " : operation + "'s ") + "task "
                + String.join(", ", tasks)));
        return "the jobs ahead of it have no known duration: " + String.join("; ", named.subList(0, Math.min(NAMED,
                named.size()))) + (named.size() > NAMED ? " and " + (named.size() - NAMED) + " more" : "")
                + " (no job like them finished, their specs give no expected_duration and they have no time limit)";
    }
}
