package io.grove.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.agent.AgentDaemon;
import io.grove.agent.AgentSettings;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.core.resource.Resources;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Predicted starts scored on the real daemon: a scheduler and two node agents of 4 cpus each (in
 * this JVM, as {@code grove local} runs them) running real {@code sleep} jobs. Every operation is
 * explained right after it is submitted, and the band given then is scored against when its first
 * job started (its record in the job ledger), as {@link ForecastAccuracy} scores the simulator's:
 * the error of the likely start relative to how far ahead it was, and whether the start fell inside
 * the band (give or take one heartbeat). An operation the forecast gave no band counts as outside.
 * Workloads, each alone on the cluster: {@code fifo} (a FIFO queue of operations declaring how long
 * their jobs run), {@code weights} (pools of weight 1 and 3 sharing the cluster), {@code guaranteed}
 * (a pool with a strong guarantee whose operations wait for preemption of a pool filling the
 * cluster), {@code wrong} (declared durations that are off: one user's jobs run half as long again
 * as declared, another's 0.7 of it) and {@code heavier} (a FIFO queue where a third of the later
 * arrivals weigh 5 and go ahead).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.grove.bench.DaemonForecastAccuracy all 7 [SECONDS]
 * </pre>
 *
 * With {@code GROVE_FORECAST_DETAIL} set it prints every operation's band and start, in seconds
 * from its submission.
 */
public final class DaemonForecastAccuracy {

    static final String POOLS = """
            admins: [admin]
            default_tree: physical
            pool_trees:
              physical:
                fair_share_starvation_timeout: 3s
                fair_share_aggressive_starvation_timeout: 6s
                preemptive_scheduling_backoff: 1s
                allocation_graceful_preemption_timeout: 1s
                pools:
                  queue: {mode: fifo}
                  light: {weight: 1}
                  heavy: {weight: 3}
                  batch: {}
                  prod: {strong_guarantee_resources: {cpu: 4}}
            """;

    static final List<String> WORKLOADS = List.of("fifo", "weights", "guaranteed", "wrong", "heavier");

    /**
     * An operation submitted, the band it was given then, and when its first job started;
     * {@code waited}: it still waited when it was explained (else it started before it could be asked).
     */
    record Scored(String workload, String id, Instant submitted, Instant earliest, Instant likely, Instant latest,
            Instant started, boolean waited) {
        boolean inside() {
            return earliest != null && latest != null && started != null
                    && !started.isBefore(earliest.minus(SLACK)) && !started.isAfter(latest.plus(SLACK));
        }

        double error() {
            double ahead = Math.max(1, Duration.between(submitted, started).toMillis() / 1000.0);
            return likely == null ? Double.POSITIVE_INFINITY
                    : Math.abs(Duration.between(likely, started).toMillis() / 1000.0) / ahead;
        }
    }

    /** A start is seen at a node's heartbeat: one heartbeat either side of the band still counts. */
    static final Duration SLACK = Duration.ofSeconds(1);

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final String api;

    private DaemonForecastAccuracy(String api) {
        this.api = api;
    }

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "all";
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 7;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 90;
        List<String> workloads = which.equals("all") ? WORKLOADS : List.of(which.split(","));
        List<Scored> all = new ArrayList<>();
        for (String workload : workloads) {
            Path dir = Files.createTempDirectory("grove-forecast-" + workload);
            Files.writeString(dir.resolve("pools.yaml"), POOLS);
            try (Cluster cluster = Cluster.start(dir)) {
                List<Scored> scored = new DaemonForecastAccuracy("http://127.0.0.1:" + cluster.scheduler.httpPort())
                        .run(workload, new SplittableRandom(seed * 1_000 + WORKLOADS.indexOf(workload)), seconds);
                report(workload, seed, scored);
                all.addAll(scored);
            }
        }
        if (workloads.size() > 1) {
            report("all", seed, all);
        }
    }

    /** A scheduler and two agents of 4 cpus and 4 job slots each, on loopback. */
    private record Cluster(SchedulerDaemon scheduler, List<AgentDaemon> agents) implements AutoCloseable {

        static Cluster start(Path dir) throws Exception {
            DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("scheduler"))
                    .withBindAddress("127.0.0.1").withPorts(0, 0);
            SchedulerDaemon scheduler = SchedulerDaemon.start(settings, Clock.SYSTEM);
            List<AgentDaemon> agents = new ArrayList<>();
            for (int i = 1; i <= 2; i++) {
                AgentSettings agent = AgentSettings.defaults("127.0.0.1", scheduler.nodePort(),
                        dir.resolve("agent-" + i), new Resources(4, 4, 0, 8L << 30, 0)).withNodeId("node-" + i)
                        .withPorts(0, 0).withTimings(Duration.ofSeconds(1), Duration.ofMillis(100));
                agents.add(AgentDaemon.start(agent, ProcessJobRunner.system()));
            }
            for (AgentDaemon agent : agents) {
                agent.welcomed().get(30, TimeUnit.SECONDS);
            }
            return new Cluster(scheduler, agents);
        }

        @Override
        public void close() {
            agents.forEach(AgentDaemon::close);
            scheduler.close();
        }
    }

    /** An operation to submit: its pool, user, weight, jobs, how long each really runs and what it declares. */
    private record Submission(String pool, String user, double weight, int jobs, double seconds, double declared) {
    }

    List<Scored> run(String workload, SplittableRandom random, int seconds) throws Exception {
        Instant end = Instant.now().plusSeconds(seconds);
        List<Scored> open = new ArrayList<>();
        int count = 0;
        if (workload.equals("guaranteed")) {
            // batch fills the cluster with long jobs first
            open.add(submitAndExplain(workload, new Submission("batch", "bob", 1, 16, seconds + 30, seconds + 30)));
        }
        while (Instant.now().isBefore(end)) {
            Submission next = next(workload, random, count++);
            open.add(submitAndExplain(workload, next));
            // arrivals as a Poisson process
            double mean = workload.equals("guaranteed") ? 12 : 3;
            LockSupport.parkNanos((long) (-Math.log(1 - random.nextDouble()) * mean * 1e9));
        }
        // every operation starts and its start reaches the ledger
        List<Scored> scored = new ArrayList<>();
        Instant deadline = Instant.now().plusSeconds(300);
        for (Scored one : open) {
            Instant started = null;
            while (started == null && Instant.now().isBefore(deadline)) {
                started = firstStart(one.id());
                if (started == null) {
                    LockSupport.parkNanos(200_000_000);
                }
            }
            scored.add(new Scored(one.workload(), one.id(), one.submitted(), one.earliest(), one.likely(), one.latest(),
                    started, one.waited()));
        }
        if (workload.equals("guaranteed")) {
            scored.remove(0);   // the filler, not a forecast worth scoring
        }
        return scored;
    }

    private static Submission next(String workload, SplittableRandom random, int count) {
        int jobs = 1 + random.nextInt(4);
        double seconds = 4 + random.nextInt(9);
        return switch (workload) {
            case "fifo" -> new Submission("queue", "u" + random.nextInt(3), 1, jobs, seconds, seconds);
            case "weights" -> random.nextBoolean() ? new Submission("light", "u1", 1, jobs, seconds, seconds)
                    : new Submission("heavy", "u2", 1, jobs, seconds, seconds);
            case "guaranteed" -> new Submission("prod", "carol", 1, 1 + random.nextInt(3), seconds, seconds);
            case "wrong" -> {
                boolean slow = random.nextBoolean();
                yield new Submission("queue", slow ? "slow" : "quick", 1, jobs, seconds * (slow ? 1.5 : 0.7), seconds);
            }
            case "heavier" -> new Submission("queue", "u" + random.nextInt(3), count > 5 && random.nextInt(3) == 0 ? 5 : 1,
                    jobs, seconds, seconds);
            default -> throw new IllegalArgumentException("no workload '" + workload + "'; workloads: " + WORKLOADS);
        };
    }

    private Scored submitAndExplain(String workload, Submission s) throws Exception {
        String spec = String.format(Locale.ROOT, "{\"pool\": \"%s\", \"weight\": %s, \"tasks\": {\"main\": {\"job_count\": %d, "
                + "\"cpu\": 1, \"memory\": \"64Mi\", \"command\": \"sleep %.1f\", \"expected_duration\": \"%dms\"}}}",
                s.pool(), s.weight(), s.jobs(), s.seconds(), Math.round(s.declared() * 1000));
        Instant submitted = Instant.now();
        JsonNode created = send("POST", "/api/v1/operations", s.user(), spec);
        String id = created.get("id").asText();
        JsonNode forecast = send("GET", "/api/v1/operations/" + id + "/explain", s.user(), null).path("forecast");
        if (forecast.isMissingNode() || forecast.isNull()) {
            // nothing of it waits any more: it started before it could be asked
            return new Scored(workload, id, submitted, null, null, null, null, false);
        }
        JsonNode band = forecast.path("next_start");
        return new Scored(workload, id, submitted, instant(band.path("earliest")), instant(band.path("likely")),
                instant(band.path("latest")), null, true);
    }

    private Instant firstStart(String id) throws Exception {
        JsonNode jobs = send("GET", "/api/v1/jobs?operation=" + URLEncoder.encode(id, StandardCharsets.UTF_8), "admin",
                null);
        Instant first = null;
        for (JsonNode job : jobs) {
            Instant started = Instant.parse(job.get("started_at").asText());
            first = first == null || started.isBefore(first) ? started : first;
        }
        JsonNode operation = send("GET", "/api/v1/operations/" + id, "admin", null);
        // a job still running has no record yet: the operation's first start is known once one has ended
        return operation.path("state").asText().equals("completed") ? first : null;
    }

    /** Seconds from the submission, or NaN. */
    private static double offset(Scored one, Instant at) {
        return at == null ? Double.NaN : Duration.between(one.submitted(), at).toMillis() / 1000.0;
    }

    private static Instant instant(JsonNode node) {
        return node.isTextual() ? Instant.parse(node.asText()) : null;
    }

    private JsonNode send(String method, String path, String user, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path)).header("X-Grove-User", user)
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(30));
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
        return json.readTree(response.body());
    }

    /** Scores the operations that still waited when explained, and says how many had started already. */
    static void report(String workload, long seed, List<Scored> all) {
        List<Scored> scored = all.stream().filter(Scored::waited).toList();
        if (System.getenv("GROVE_FORECAST_DETAIL") != null) {
            for (Scored one : all) {
                System.out.printf(Locale.ROOT, "  %-8s submitted %s  band %+.1f %+.1f %+.1f  started %+.1f  %s%n", one.id(),
                        one.submitted(), offset(one, one.earliest()), offset(one, one.likely()), offset(one, one.latest()),
                        offset(one, one.started()), one.inside() ? "inside" : "OUT");
            }
        }
        long inside = scored.stream().filter(Scored::inside).count();
        long late = scored.stream().filter(s -> s.latest() != null && s.started() != null
                && s.started().isAfter(s.latest().plus(SLACK))).count();
        long none = scored.stream().filter(s -> s.likely() == null).count();
        double[] errors = scored.stream().mapToDouble(Scored::error).sorted().toArray();
        System.out.printf(Locale.ROOT, "%-10s seed %d, the daemon: %3d operations, median error %5.1f%%, inside the band "
                + "%5.1f%% (later than it %d, earlier %d, no band %d); %d started before they were asked%n", workload, seed,
                scored.size(), errors.length == 0 ? 0 : errors[errors.length / 2] * 100,
                scored.isEmpty() ? 0 : 100.0 * inside / scored.size(), late, scored.size() - inside - late - none, none,
                all.size() - scored.size());
    }
}
