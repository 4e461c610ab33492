package io.grove.core.sim;

import io.grove.core.node.NodeTopology;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.OperationType;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What a simulation runs: nodes, operations arriving over time, periods, and timed events.
 *
 * @param heartbeatPeriod how often each node heartbeats (plus up to a fifth of it as jitter)
 * @param fairShareUpdatePeriod how often fair shares are recomputed
 * @param nodes groups of identical nodes, named {@code <group>-<i>}
 * @param operations groups of identical operations
 * @param events node loss and return, config changes
 */
public record Workload(
        Duration heartbeatPeriod,
        Duration fairShareUpdatePeriod,
        List<NodeGroup> nodes,
        List<OperationGroup> operations,
        List<TimedEvent> events) {

    public Workload {
        if (heartbeatPeriod.isNegative() || heartbeatPeriod.isZero()) {
            throw new IllegalArgumentException("heartbeat_period must be positive, got " + heartbeatPeriod);
        }
        if (fairShareUpdatePeriod.isNegative() || fairShareUpdatePeriod.isZero()) {
            throw new IllegalArgumentException("fair_share_update_period must be positive, got " + fairShareUpdatePeriod);
        }
        nodes = List.copyOf(nodes);
        operations = List.copyOf(operations);
        events = List.copyOf(events == null ? List.of() : events);
    }

    /** {@code count} nodes with the same resources and tags. */
    public record NodeGroup(String name, int count, Resources resources, Set<String> tags, NodeTopology topology) {
        public NodeGroup {
            if (count < 1) {
                throw new IllegalArgumentException("node group " + name + ": count must be at least 1, got " + count);
            }
            tags = Set.copyOf(tags == null ? Set.of() : tags);
            topology = topology == null ? NodeTopology.NONE : topology;
        }

        /** A group whose nodes give no topology. */
        public NodeGroup(String name, int count, Resources resources, Set<String> tags) {
            this(name, count, resources, tags, NodeTopology.NONE);
        }
    }

    /**
     * {@code count} identical operations submitted at {@code at}.
     *
     * @param name group name; operations are {@code <name>-<i>}
     * @param count how many
     * @param at submit time from the start of the simulation
     * @param pool the pool, or {@code null} for the user's ephemeral pool
     * @param tree the tree, or {@code null} for the default tree
     * @param user the owner
     * @param jobs jobs per operation
     * @param job resources of one job
     * @param duration how long each job runs; {@code null} runs forever
     * @param weight operation weight
     * @param type vanilla or another kind
     * @param gang {@code null} for operations whose jobs start one by one; else each is a gang of
     *     {@code jobs} ranks held to this topology ({@link GangTopology#NONE}: anywhere)
     * @param checkpointEvery how often each job reports a checkpoint, from its start
     *     ({@code checkpoint_every}); {@code null}: never
     */
    public record OperationGroup(String name, int count, Duration at, String pool, String tree, String user, int jobs,
            Resources job, Duration duration, double weight, OperationType type, GangTopology gang,
            Duration checkpointEvery) {
        public OperationGroup {
            if (count < 1 || jobs < 1) {
                throw new IllegalArgumentException("operation group " + name + ": count and jobs must be at least 1");
            }
            if (checkpointEvery != null && checkpointEvery.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("operation group " + name + ": checkpoint_every must be at least 1s, got "
                        + checkpointEvery);
            }
            type = type == null ? OperationType.VANILLA : type;
        }

        /** A group whose jobs report no checkpoints. */
        public OperationGroup(String name, int count, Duration at, String pool, String tree, String user, int jobs,
                Resources job, Duration duration, double weight, OperationType type, GangTopology gang) {
            this(name, count, at, pool, tree, user, jobs, job, duration, weight, type, gang, null);
        }

        /** A group of operations that are not gangs. */
        public OperationGroup(String name, int count, Duration at, String pool, String tree, String user, int jobs,
                Resources job, Duration duration, double weight, OperationType type) {
            this(name, count, at, pool, tree, user, jobs, job, duration, weight, type, null);
        }
    }

    /** Something that happens at a given time. */
    public sealed interface TimedEvent {
        Duration at();
    }

    /** Nodes stop: their machines die with their jobs. */
    public record NodeLoss(Duration at, List<String> nodes) implements TimedEvent {
    }

    /** Lost nodes come back, empty. */
    public record NodeReturn(Duration at, List<String> nodes) implements TimedEvent {
    }

    /** The pool configuration is replaced. */
    public record ConfigChange(Duration at, PoolsConfig config) implements TimedEvent {
    }
}
