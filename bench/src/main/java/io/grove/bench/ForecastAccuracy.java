package io.grove.bench;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.forecast.Cadence;
import io.grove.core.forecast.ForecastSnapshot;
import io.grove.core.forecast.StartForecast;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.sim.SimNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * How good predicted starts are: a seeded workload runs on the real core (nodes simulated, job
 * durations drawn per operation around its group's typical length), and every few minutes each
 * pending operation's next start is predicted from the state at that moment; when its next job
 * really starts, the prediction is scored: the absolute error relative to how far ahead it was,
 * and whether it fell inside the band. Workloads: {@code steady} (operations arrive at random,
 * offering 95% of the cluster's cpu), {@code overload} (nearly four times that: pools reach their
 * operation limits and submissions are refused), {@code bursts} (half-hour bursts at about fifteen
 * times the cluster every two hours, then a trickle), {@code preemption} (as overload, and a pool of weight 4 takes
 * half the arrivals after two hours, starving the others), {@code gangs} (the nodes in four racks of
 * five, every job held to its pool's 30-minute time limit, a quarter of the arrivals gangs of 2–4
 * whole-node ranks held to one rack, offering about 110% of the cluster: gangs starve, preempt and
 * get reservations; their predictions are also scored apart).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.grove.bench.ForecastAccuracy steady 7
 * </pre>
 */
public final class ForecastAccuracy {

    private record Prediction(String operation, Instant at, StartForecast.Band band, boolean gang, List<String> assumptions) {
    }

    private record Score(double horizonSeconds, double relativeError, boolean inside, boolean late, boolean gang) {
    }

    private ForecastAccuracy() {
    }

    public static void main(String[] args) {
        String workload = args.length > 0 ? args[0] : "steady";
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 7;
        List<Score> scores = run(workload, seed);
        report(workload, seed, scores);
        long[] ms = COMPUTE_MS.stream().mapToLong(Long::longValue).sorted().toArray();
        if (ms.length > 0) {
            System.out.printf(Locale.ROOT, "%-10s seed %d, a forecast's computing: median %d ms, p90 %d ms, max %d ms of %d; "
                    + "%d ran out of their %s%n", workload, seed, ms[ms.length / 2], ms[ms.length * 9 / 10], ms[ms.length - 1],
                    ms.length, outOfTime, STEPS > 0 ? STEPS + " steps" : BUDGET.toSeconds() + " s");
            long[] steps = COMPUTE_STEPS.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "%-10s seed %d, a forecast's steps of its copies: median %d, p90 %d, max %d%n",
                    workload, seed, steps[steps.length / 2], steps[steps.length * 9 / 10], steps[steps.length - 1]);
        }
    }

    /** Each forecast's wall time (ms) and steps of its copies, and how many ran out of their budget. */
    private static final List<Long> COMPUTE_MS = new ArrayList<>();
    private static final List<Long> COMPUTE_STEPS = new ArrayList<>();
    private static int outOfTime;

    /**
     * How long one forecast may compute (wall time): more than the daemon's 3 s, so that what is
     * scored is the forecast's accuracy rather than this machine's speed; how many ran out is printed.
     */
    static final Duration BUDGET = Duration.ofSeconds(10);

    /**
     * With {@code GROVE_FORECAST_STEPS=N}, a forecast's budget is N steps of its copies (the ticker
     * counts them) instead of {@link #BUDGET}: which forecasts are scored is then the same on any
     * machine and under any load, and a run is repeatable.
     */
    static final long STEPS = Long.parseLong(System.getenv().getOrDefault("GROVE_FORECAST_STEPS", "0"));

    static List<Score> run(String workload, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean gangs = workload.equals("gangs");
        Duration limit = gangs ? Duration.ofMinutes(30) : null;
        List<PoolConfig> pools = new ArrayList<>();
        for (String name : List.of("etl", "research", "adhoc")) {
            pools.add(PoolConfig.builder(name).weight(name.equals("etl") && workload.equals("preemption") ? 4 : 1)
                    .timeLimits(limit, limit).build());
        }
        PoolTreeConfig tree = PoolTreeConfig.withPools("physical", pools).withTopologyLevels(gangs ? List.of("rack") : List.of());
        PoolsConfig config = new PoolsConfig("physical", Map.of("physical", tree));
        Cluster cluster = new Cluster(config, ClusterSettings.DEFAULT);
        Map<String, SimNode> nodes = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            nodes.put("n" + i, new SimNode("n" + i, Set.of(), new Resources(8, 8, 0, 64e9, 0))
                    .withTopology(gangs ? NodeTopology.parse("rack=r" + i / 5) : NodeTopology.NONE));
        }
        Instant t = Instant.parse("2026-11-27T00:00:00Z");
        Instant end = t.plus(Duration.ofHours(4));
        Map<String, Duration> typical = new HashMap<>();
        Map<String, Duration> durationOf = new HashMap<>();
        Map<String, Integer> startsSeen = new HashMap<>();
        List<Prediction> open = new ArrayList<>();
        List<Score> scores = new ArrayList<>();
        int submitted = 0;
        Instant nextForecast = t.plus(Duration.ofMinutes(30));
        while (t.isBefore(end)) {
            // arrivals
            double rate = switch (workload) {
                case "bursts" -> (t.getEpochSecond() / 1800) % 4 == 0 ? 0.25 : 0.01;
                // work offered at 95% of the cluster: 160 cpus, operations of 17.5 jobs of 570 s on average
                case "steady" -> 0.95 * 160 / (17.5 * 570);
                // a quarter gangs of 3 whole nodes on average: about 110% of the cluster
                case "gangs" -> 0.012;
                default -> 0.06;
            };
            if (random.nextDouble() < rate) {
                String pool = workload.equals("preemption") && t.isAfter(Instant.parse("2026-11-27T02:00:00Z"))
                        && random.nextBoolean() ? "etl" : List.of("etl", "research", "adhoc").get(random.nextInt(3));
                String user = "u" + random.nextInt(4);
                String group = user + "@" + pool;
                Duration base = typical.computeIfAbsent(group, g -> Duration.ofSeconds(120 + random.nextInt(900)));
                String id = "op-" + (++submitted);
                int jobs = 4 + random.nextInt(28);
                boolean gang = gangs && random.nextInt(4) == 0;
                OperationSpec spec = gang
                        ? OperationSpec.builder().pool(pool).jobs(2 + random.nextInt(3), new Resources(1, 8, 0, 16e9, 0))
                                .gang().topology("rack", true).build()
                        : OperationSpec.builder().pool(pool).jobs(jobs, new Resources(1, 1 + random.nextInt(2), 0, 2e9, 0))
                                .build();
                try {
                    cluster.submit(id, spec, user, t);
                    // each operation's jobs run about its group's typical length (a spread of +-30%)
                    durationOf.put(id, Duration.ofMillis((long) (base.toMillis() * (0.7 + 0.6 * random.nextDouble()))));
                } catch (SubmitException full) {
                    // the pool is at its operation count: refused, as a user's submission would be
                }
            }
            if (t.getEpochSecond() % 5 == 0) {
                for (String name : cluster.treeNames()) {
                    cluster.publishFairShare(Cluster.computeFairShare(cluster.prepareFairShare(name, t)));
                }
            }
            cluster.checkNodes(t);
            for (SimNode node : nodes.values()) {
                Decision decided = node.beat(cluster, t, durationOf::get);
                if (DETAIL && !decided.preemptions().isEmpty() && "2".equals(System.getenv("GROVE_FORECAST_DETAIL"))) {
                    for (Decision.JobPreemption preemption : decided.preemptions()) {
                        System.out.printf(Locale.ROOT, "    %s preempt %s for %s (%s)%n", t, preemption.jobId(),
                                preemption.preemptorOperationId(), preemption.reason());
                    }
                }
                for (Decision.JobStart start : decided.starts()) {
                    startsSeen.merge(start.operationId(), 1, Integer::sum);
                    for (var it = open.iterator(); it.hasNext();) {
                        Prediction p = it.next();
                        if (p.operation().equals(start.operationId())) {
                            it.remove();
                            scores.add(score(p, t));
                        }
                    }
                }
            }
            if (!t.isBefore(nextForecast)) {
                nextForecast = t.plus(Duration.ofMinutes(10));
                // the copy runs at this cluster's cadence: heartbeats every second, fair-share updates every 5 s
                ForecastSnapshot snapshot = ForecastSnapshot.take(cluster, t, SIM_CADENCE);
                int asked = 0;
                for (Operation operation : cluster.registry().operations()) {
                    if (operation.state().isFinished() || operation.pendingJobCount() == 0 || asked >= 5
                            || open.stream().anyMatch(p -> p.operation().equals(operation.id()))) {
                        continue;
                    }
                    long began = System.nanoTime();
                    long[] steps = {0};
                    LongSupplier ticker = STEPS > 0 ? () -> ++steps[0] : () -> {
                        steps[0]++;
                        return System.nanoTime();
                    };
                    StartForecast.Prediction prediction = StartForecast.predict(snapshot, operation.id(), seed,
                            STEPS > 0 ? STEPS : BUDGET.toNanos(), ticker, false);
                    COMPUTE_MS.add((System.nanoTime() - began) / 1_000_000);
                    COMPUTE_STEPS.add(steps[0]);
                    outOfTime += prediction.unknown() != null && prediction.unknown().contains("took longer") ? 1 : 0;
                    if (prediction.nextStart() != null && prediction.nextStart().likely() != null) {
                        open.add(new Prediction(operation.id(), t, prediction.nextStart(), operation.spec().gang(),
                                prediction.assumptions()));
                        asked++;
                    }
                }
            }
            t = t.plusSeconds(1);
        }
        return scores;
    }

    private static Score score(Prediction prediction, Instant actual) {
        double ahead = Math.max(1, Duration.between(prediction.at(), actual).toSeconds());
        double error = Math.abs(Duration.between(prediction.band().likely(), actual).toSeconds()) / ahead;
        boolean early = actual.isBefore(prediction.band().earliest().minusSeconds(5));
        boolean late = prediction.band().latest() != null && actual.isAfter(prediction.band().latest().plusSeconds(5));
        if (DETAIL && (early || late)) {
            System.out.printf(Locale.ROOT, "  %-8s%s at %s: band %+d %+d %s, started %+d%n", prediction.operation(),
                    prediction.gang() ? " (gang)" : "", prediction.at(), offset(prediction, prediction.band().earliest()),
                    offset(prediction, prediction.band().likely()), prediction.band().latest() == null ? "-"
                            : String.format(Locale.ROOT, "%+d", offset(prediction, prediction.band().latest())),
                    offset(prediction, actual));
            if (System.getenv("GROVE_FORECAST_DETAIL").equals("2")) {
                prediction.assumptions().forEach(a -> System.out.println("      " + a));
            }
        }
        return new Score(ahead, error, !early && !late, late, prediction.gang());
    }

    /** This simulation's cadence: every node heartbeats each second, fair shares are updated every 5 s. */
    static final Cadence SIM_CADENCE = new Cadence(Duration.ofSeconds(1), Duration.ofSeconds(5));

    /** With {@code GROVE_FORECAST_DETAIL} set, every miss is printed: its band and start in seconds from the prediction. */
    static final boolean DETAIL = System.getenv("GROVE_FORECAST_DETAIL") != null;

    private static long offset(Prediction prediction, Instant at) {
        return Duration.between(prediction.at(), at).toSeconds();
    }

    private static void report(String workload, long seed, List<Score> scores) {
        report(workload, seed, scores, "");
        if (scores.stream().anyMatch(Score::gang)) {
            report(workload, seed, scores.stream().filter(Score::gang).toList(), " (gangs)");
        }
    }

    private static void report(String workload, long seed, List<Score> scores, String which) {
        for (double horizon : new double[] {600, 3600}) {
            List<Score> within = scores.stream().filter(s -> s.horizonSeconds() <= horizon).toList();
            if (within.isEmpty()) {
                System.out.printf(Locale.ROOT, "%-10s seed %d%s, starts within %4.0f min: none%n", workload, seed, which,
                        horizon / 60);
                continue;
            }
            double[] errors = within.stream().mapToDouble(Score::relativeError).sorted().toArray();
            long inside = within.stream().filter(Score::inside).count();
            long late = within.stream().filter(Score::late).count();
            System.out.printf(Locale.ROOT, "%-10s seed %d%s, starts within %4.0f min: %4d predictions, median error %5.1f%%, "
                    + "inside the band %5.1f%% (later than it %d, earlier %d)%n", workload, seed, which, horizon / 60, within.size(),
                    errors[errors.length / 2] * 100, 100.0 * inside / within.size(), late, within.size() - inside - late);
        }
    }
}
