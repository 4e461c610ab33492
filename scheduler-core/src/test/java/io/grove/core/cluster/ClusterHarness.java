package io.grove.core.cluster;

import io.grove.core.node.NodeTopology;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import io.grove.core.sim.SimNode;
import io.grove.core.sim.Simulator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scenario tests as scripts: the real {@link Cluster} with simulated machines and a fake clock.
 * <pre>
 *   h.node("n1", cpu(32)); h.submit("op", spec); h.update(); h.heartbeat("n1"); h.advance(seconds(30));
 * </pre>
 */
public final class ClusterHarness {

    private final Cluster cluster;
    private final Map<String, SimNode> machines = new LinkedHashMap<>();
    private final Map<String, Duration> durations = new HashMap<>();
    private final List<Decision> decisions = new ArrayList<>();
    private Instant now = Simulator.EPOCH;

    private ClusterHarness(PoolsConfig config) {
        this.cluster = new Cluster(config, ClusterSettings.DEFAULT);
    }

    /** A harness over trees; the first is the default. */
    public static ClusterHarness of(PoolTreeConfig... trees) {
        Map<String, PoolTreeConfig> byName = new LinkedHashMap<>();
        for (PoolTreeConfig tree : trees) {
            byName.put(tree.name(), tree);
        }
        return new ClusterHarness(new PoolsConfig(trees[0].name(), byName));
    }

    /** A harness over one tree named {@code physical} with these top-level pools. */
    public static ClusterHarness withPools(PoolConfig.Builder... pools) {
        List<PoolConfig> built = new ArrayList<>();
        for (PoolConfig.Builder pool : pools) {
            built.add(pool.build());
        }
        return of(PoolTreeConfig.withPools("physical", built));
    }

    /** Resources of {@code cpu} cores and {@code memoryGi} GiB; user slots as many as cores. */
    public static Resources node(double cpu, double memoryGi) {
        return new Resources(cpu, cpu, 0, memoryGi * (1L << 30), 0);
    }

    /** Resources of one job: {@code cpu} cores and {@code memoryGi} GiB. */
    public static Resources job(double cpu, double memoryGi) {
        return new Resources(1, cpu, 0, memoryGi * (1L << 30), 0);
    }

    public Cluster cluster() {
        return cluster;
    }

    public Instant now() {
        return now;
    }

    /** Adds a machine and registers it with a first heartbeat. */
    public ClusterHarness node(String id, Resources limits, String... tags) {
        SimNode machine = new SimNode(id, Set.of(tags), limits);
        machines.put(id, machine);
        cluster.report(machine.heartbeat(), now);
        return this;
    }

    /** Adds a machine with {@code diskBytes} of disk for jobs' disk orders. */
    public ClusterHarness nodeWithDisk(String id, Resources limits, long diskBytes) {
        SimNode machine = new SimNode(id, Set.of(), limits).withDisk(diskBytes);
        machines.put(id, machine);
        cluster.report(machine.heartbeat(), now);
        return this;
    }

    /** Adds a machine that sits at {@code topology} ({@code block=b1,rack=r07}). */
    public ClusterHarness nodeAt(String id, Resources limits, String topology) {
        SimNode machine = new SimNode(id, Set.of(), limits).withTopology(NodeTopology.parse(topology));
        machines.put(id, machine);
        cluster.report(machine.heartbeat(), now);
        return this;
    }

    /** Adds a machine that runs no jobs in container images, for the reason given. */
    public ClusterHarness nodeWithoutImages(String id, Resources limits, String why) {
        SimNode machine = new SimNode(id, Set.of(), limits).withoutImages(why);
        machines.put(id, machine);
        cluster.report(machine.heartbeat(), now);
        return this;
    }

    public Operation submit(String id, OperationSpec spec) {
        return submit(id, "alice", spec);
    }

    public Operation submit(String id, String user, OperationSpec spec) {
        return cluster.submit(id, spec, user, now);
    }

    /** Jobs of {@code operation} run for {@code duration} from their start (default: forever). */
    public ClusterHarness jobsOf(String operation, Duration duration) {
        durations.put(operation, duration);
        return this;
    }

    public ClusterHarness update() {
        cluster.checkNodes(now);
        cluster.updateFairShare(now);
        return this;
    }

    /** One heartbeat of one machine: it reports, the scheduler decides and applies, the machine obeys. */
    public Decision heartbeat(String id) {
        SimNode machine = machines.get(id);
        machine.advance(now);
        Heartbeat heartbeat = machine.heartbeat();
        Decision decision = cluster.heartbeat(heartbeat, now);
        machine.apply(decision, now, durations::get, op -> false);
        decisions.add(decision);
        return decision;
    }

    /** The heartbeat a machine would send now, without sending it. */
    public Heartbeat pendingHeartbeat(String id) {
        return machines.get(id).heartbeat();
    }

    /** Every machine heartbeats once, in order. */
    public List<Decision> heartbeatAll() {
        List<Decision> out = new ArrayList<>();
        for (String id : machines.keySet()) {
            if (machines.get(id).isUp()) {
                out.add(heartbeat(id));
            }
        }
        return out;
    }

    /** {@code rounds} times: advance the clock, update fair shares, heartbeat every machine. */
    public ClusterHarness rounds(int rounds, Duration step) {
        for (int i = 0; i < rounds; i++) {
            advance(step);
            update();
            heartbeatAll();
        }
        return this;
    }

    public ClusterHarness advance(Duration duration) {
        now = now.plus(duration);
        return this;
    }

    public SimNode machine(String id) {
        return machines.get(id);
    }

    public List<Decision> decisions() {
        return decisions;
    }

    /** Running jobs of an operation. */
    public int running(String operation) {
        return cluster.registry().operation(operation).runningJobCount();
    }

    /** All preemptions decided so far. */
    public List<Decision.JobPreemption> preemptions() {
        List<Decision.JobPreemption> out = new ArrayList<>();
        for (Decision decision : decisions) {
            out.addAll(decision.preemptions());
        }
        return out;
    }

    public Job job(String id) {
        return cluster.registry().runningJob(id);
    }
}
