package io.grove.core.sim;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationState;
import io.grove.core.operation.RegistryListener;
import io.grove.core.operation.SubmitException;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.resource.ResourceType;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Runs a {@link Workload} against the real {@link Cluster} on a virtual clock. Everything random
 * (heartbeat offsets and jitter) comes from the seed, so a run is a function of its inputs; only
 * the optional wall-clock ticker, used to report the time spent deciding and updating, is not.
 */
public final class Simulator {

    /** Where virtual time starts. */
    public static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
    private static final int MAX_VIOLATIONS_KEPT = 20;

    private sealed interface Event {
    }

    private record HeartbeatEvent(String node) implements Event {
    }

    private record UpdateEvent() implements Event {
    }

    /** A heartbeat asked for now ({@code heartbeat_now}): the node's own period goes on as it was. */
    private record NudgeEvent(String node) implements Event {
    }

    private record SubmitEvent(Workload.OperationGroup group, int number) implements Event {
    }

    private record TimedEvent(Workload.TimedEvent event) implements Event {
    }

    private record Scheduled(Instant at, long sequence, Event event) {
    }

    private final Workload workload;
    private final long seed;
    private final LongSupplier ticker;
    private final Cluster cluster;
    private final SplittableRandom random;
    private final PriorityQueue<Scheduled> queue = new PriorityQueue<>((a, b) -> {
        int byTime = a.at().compareTo(b.at());
        return byTime != 0 ? byTime : Long.compare(a.sequence(), b.sequence());
    });
    private final Map<String, SimNode> machines = new LinkedHashMap<>();
    private final Map<String, Duration> durations = new HashMap<>();
    /** How often each operation's jobs checkpoint, for those whose group says. */
    private final Map<String, Duration> checkpointEvery = new HashMap<>();
    /** Work lost to preemption, in resource-seconds by resource. */
    private final double[] lostWork = new double[ResourceType.COUNT];
    private final Map<String, Map<String, double[]>> poolTotals = new LinkedHashMap<>();
    private final Map<String, Map<String, double[]>> poolLast = new LinkedHashMap<>();
    private final List<SimReport.Sample> samples = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private final List<Double> waits = new ArrayList<>();
    private final double[] utilization = new double[ResourceType.COUNT];
    private long sequence;
    private long samplesTaken;
    private long violationCount;
    private long heartbeats;
    private long started;
    private long preempted;
    private long refused;
    private long decisionNanos;
    private long updateNanos;
    private boolean configChanged;
    private int invariantInterval = 1;
    private long events;
    private Instant now = EPOCH;

    /**
     * @param config the pools
     * @param workload what to run
     * @param settings node timeouts
     * @param seed the seed of every random choice
     * @param ticker a nanosecond ticker for the wall-clock figures, or {@code null}
     */
    public Simulator(PoolsConfig config, Workload workload, ClusterSettings settings, long seed, LongSupplier ticker) {
        this.workload = workload;
        this.seed = seed;
        this.ticker = ticker == null ? () -> 0L : ticker;
        this.cluster = new Cluster(config, settings);
        cluster.registry().listener(new RegistryListener() {
            @Override
            public void jobEnded(Job job) {
                if (job.lostWorkMs() > 0) {
                    for (ResourceType type : ResourceType.values()) {
                        lostWork[type.ordinal()] += job.resources().get(type) * job.lostWorkMs() / 1000.0;
                    }
                }
            }
        });
        this.random = new SplittableRandom(seed);
        for (Workload.NodeGroup group : workload.nodes()) {
            for (int i = 1; i <= group.count(); i++) {
                SimNode machine = new SimNode(group.name() + "-" + i, group.tags(), group.resources())
                        .withTopology(group.topology()).withCheckpoints(checkpointEvery::get);
                machines.put(machine.id(), machine);
                schedule(EPOCH.plusNanos(random.nextLong(workload.heartbeatPeriod().toNanos())),
                        new HeartbeatEvent(machine.id()));
            }
        }
        for (Workload.OperationGroup group : workload.operations()) {
            for (int i = 1; i <= group.count(); i++) {
                schedule(EPOCH.plus(group.at()), new SubmitEvent(group, i));
            }
        }
        for (Workload.TimedEvent event : workload.events()) {
            schedule(EPOCH.plus(event.at()), new TimedEvent(event));
        }
        schedule(EPOCH.plus(workload.fairShareUpdatePeriod()), new UpdateEvent());
    }

    private void schedule(Instant at, Event event) {
        queue.add(new Scheduled(at, sequence++, event));
    }

    /**
     * Checks the invariants after every {@code interval}-th event instead of after every event (and
     * always at the end); 1 is the default. For load drivers whose clusters are too big to check
     * after each heartbeat.
     */
    public Simulator checkInvariantsEvery(int interval) {
        if (interval < 1) {
            throw new IllegalArgumentException("invariant check interval must be at least 1, got " + interval);
        }
        this.invariantInterval = interval;
        return this;
    }

    public Cluster cluster() {
        return cluster;
    }

    /** The virtual time of the last event. */
    public Instant now() {
        return now;
    }

    /** Runs until {@code duration} of virtual time has passed and reports. */
    public SimReport run(Duration duration) {
        Instant end = EPOCH.plus(duration);
        while (!queue.isEmpty() && !queue.peek().at().isAfter(end)) {
            Scheduled next = queue.poll();
            now = next.at();
            handle(next.event());
            if (++events % invariantInterval == 0) {
                record(Invariants.check(cluster, upMachines(), configChanged));
            }
        }
        if (events % invariantInterval != 0) {
            record(Invariants.check(cluster, upMachines(), configChanged));
        }
        now = end;
        return report(duration);
    }

    private List<SimNode> upMachines() {
        return machines.values().stream().filter(SimNode::isUp).toList();
    }

    private void record(List<String> found) {
        violationCount += found.size();
        for (String violation : found) {
            if (violations.size() < MAX_VIOLATIONS_KEPT) {
                violations.add("t=" + Duration.between(EPOCH, now).toMillis() / 1000.0 + "s: " + violation);
            }
        }
    }

    private void handle(Event event) {
        if (event instanceof HeartbeatEvent heartbeat) {
            schedule(now.plusNanos(period() + random.nextLong(period() / 5 + 1)), new HeartbeatEvent(heartbeat.node()));
            heartbeat(heartbeat.node());
        } else if (event instanceof NudgeEvent nudge) {
            heartbeat(nudge.node());
        } else if (event instanceof UpdateEvent) {
            update();
        } else if (event instanceof SubmitEvent submit) {
            submit(submit.group(), submit.number());
        } else if (event instanceof TimedEvent timed) {
            timed(timed.event());
        }
    }

    private long period() {
        return workload.heartbeatPeriod().toNanos();
    }

    /** The nodes the scheduler asks to heartbeat now for gangs come a millisecond later, as over a network. */
    private void nudges() {
        for (String id : cluster.takeNudges()) {
            if (machines.containsKey(id)) {
                schedule(now.plusMillis(1), new NudgeEvent(id));
            }
        }
    }

    private void heartbeat(String id) {
        SimNode machine = machines.get(id);
        if (!machine.isUp()) {
            return;
        }
        machine.advance(now);
        Heartbeat heartbeat = machine.heartbeat();
        long start = ticker.getAsLong();
        cluster.report(heartbeat, now);
        Decision decision = cluster.decide(heartbeat, now);
        record(Invariants.pingPong(cluster, decision));
        record(Invariants.guarantees(cluster, decision));
        cluster.apply(decision, now);
        decisionNanos += ticker.getAsLong() - start;
        heartbeats++;
        for (Decision.JobStart jobStart : decision.starts()) {
            started++;
            Job job = cluster.registry().runningJob(jobStart.jobId());
            if (job != null && job.attempt() == 0) {
                Operation operation = cluster.registry().operation(job.operationId());
                waits.add(Duration.between(operation.submitTime(), now).toNanos() / 1e9);
            }
        }
        preempted += decision.preemptions().size();
        machine.apply(decision, now, durations::get, operation -> false);
        nudges();
    }

    private void update() {
        long start = ticker.getAsLong();
        cluster.checkNodes(now);
        cluster.updateFairShare(now);
        updateNanos += ticker.getAsLong() - start;
        nudges();
        sample();
        schedule(now.plus(workload.fairShareUpdatePeriod()), new UpdateEvent());
    }

    private void submit(Workload.OperationGroup group, int number) {
        String id = group.name() + "-" + number;
        OperationSpec.Builder spec = OperationSpec.builder().type(group.type()).pool(group.pool()).weight(group.weight())
                .task(TaskSpec.of("main", group.jobs(), group.job(), "simulated"));
        if (group.tree() != null) {
            spec.tree(group.tree());
        }
        if (group.gang() != null && group.gang().constrained()) {
            spec.topology(group.gang().level(), group.gang().required());
        } else if (group.gang() != null) {
            spec.gang();
        }
        try {
            cluster.submit(id, spec.build(), group.user(), now);
            durations.put(id, group.duration());
            if (group.checkpointEvery() != null) {
                checkpointEvery.put(id, group.checkpointEvery());
            }
        } catch (SubmitException refusedSubmit) {
            refused++;
        }
    }

    private void timed(Workload.TimedEvent event) {
        if (event instanceof Workload.NodeLoss loss) {
            loss.nodes().forEach(id -> machine(id).lose());
        } else if (event instanceof Workload.NodeReturn back) {
            back.nodes().forEach(id -> machine(id).restore());
        } else if (event instanceof Workload.ConfigChange change) {
            cluster.reconfigure(change.config());
            configChanged = true;
        }
    }

    private SimNode machine(String id) {
        SimNode machine = machines.get(id);
        if (machine == null) {
            throw new IllegalArgumentException("workload event names unknown node " + id + "; nodes: " + machines.keySet());
        }
        return machine;
    }

    private void sample() {
        double seconds = Duration.between(EPOCH, now).toNanos() / 1e9;
        double period = workload.fairShareUpdatePeriod().toNanos() / 1e9;
        for (String tree : cluster.treeNames()) {
            Map<String, StarvationStatus> starving = cluster.starving(tree);
            Map<String, double[]> totals = poolTotals.computeIfAbsent(tree, t -> new LinkedHashMap<>());
            Map<String, double[]> last = poolLast.computeIfAbsent(tree, t -> new LinkedHashMap<>());
            for (ElementShares element : cluster.elements(tree)) {
                if (element.kind() == ElementKind.OPERATION) {
                    continue;
                }
                double usage = element.usageShare().max();
                double fair = element.fairShare().total().max();
                double demand = element.demandShare().max();
                boolean isStarving = starving.containsKey(element.id());
                double[] sums = totals.computeIfAbsent(element.id(), p -> new double[5]);
                sums[0] += usage;
                sums[1] += fair;
                sums[2] += demand;
                sums[3] += isStarving ? period : 0;
                sums[4]++;
                last.put(element.id(), new double[] {usage, fair});
                samples.add(new SimReport.Sample(seconds, tree, element.id(), usage, fair, demand, isStarving));
            }
        }
        double[] offered = new double[ResourceType.COUNT];
        double[] used = new double[ResourceType.COUNT];
        for (Node node : cluster.nodes()) {
            if (node.state() == Node.State.ONLINE) {
                for (int r = 0; r < offered.length; r++) {
                    offered[r] += node.limits().get(r);
                    used[r] += node.usage().get(r);
                }
            }
        }
        for (int r = 0; r < offered.length; r++) {
            utilization[r] += offered[r] == 0 ? 0 : used[r] / offered[r];
        }
        samplesTaken++;
    }

    private SimReport report(Duration duration) {
        Map<String, Map<String, SimReport.PoolSummary>> pools = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, double[]>> tree : poolTotals.entrySet()) {
            Map<String, SimReport.PoolSummary> summaries = new LinkedHashMap<>();
            for (Map.Entry<String, double[]> pool : tree.getValue().entrySet()) {
                double[] sums = pool.getValue();
                double[] last = poolLast.get(tree.getKey()).get(pool.getKey());
                summaries.put(pool.getKey(), new SimReport.PoolSummary(sums[0] / sums[4], sums[1] / sums[4],
                        sums[2] / sums[4], last[0], last[1], sums[3]));
            }
            pools.put(tree.getKey(), summaries);
        }
        Map<String, Double> util = new LinkedHashMap<>();
        for (ResourceType type : ResourceType.values()) {
            util.put(type.key(), samplesTaken == 0 ? 0 : utilization[type.ordinal()] / samplesTaken);
        }
        long completedJobs = 0;
        long completedOperations = 0;
        for (Operation operation : cluster.registry().operations()) {
            completedJobs += operation.completedJobCount();
            if (operation.state() == OperationState.COMPLETED) {
                completedOperations++;
            }
        }
        List<Double> sorted = new ArrayList<>(waits);
        sorted.sort(null);
        double mean = sorted.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double p95 = sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.95) - 1));
        Map<String, Double> lost = new LinkedHashMap<>();
        for (ResourceType type : ResourceType.values()) {
            lost.put(type.key(), lostWork[type.ordinal()]);
        }
        return new SimReport(seed, duration.toNanos() / 1e9, pools, util, heartbeats, started, preempted, completedJobs,
                completedOperations, refused, mean, p95, violationCount, List.copyOf(violations), decisionNanos / 1e9,
                updateNanos / 1e9, List.copyOf(samples), lost);
    }
}
