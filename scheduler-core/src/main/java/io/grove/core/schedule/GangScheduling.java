package io.grove.core.schedule;

import io.grove.core.node.Node;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.TaskSpec;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.resource.ResourceText;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Plans the tree's waiting gangs (docs/scheduling.md#gangs): each gang operation with every job
 * pending and none running, lowest satisfaction first, gets a node for every rank at once from
 * what is free on the tree's nodes less what earlier plans hold ({@link GangPlanner}), within the
 * limits on its path, on nodes its tag filters allow; or a reason it waits. A gang that waits
 * holds nothing, so the jobs of other operations go on using what is free.
 */
public final class GangScheduling {

    /** The first port a gang's rank 0 is given ({@code MASTER_PORT}), as torchrun's default. */
    public static final int FIRST_MASTER_PORT = 29500;
    /** How many ports from {@link #FIRST_MASTER_PORT} gangs take turns on. */
    public static final int MASTER_PORTS = 500;

    /** What planning needs of the plans already made. */
    public interface Held {
        /**
         * Whether the operation has a plan already (being started, or running), in this tree or
         * another: a gang in several trees runs in the first that plans it.
         */
        boolean planned(String operationId);

        /** What plans hold on a node for ranks not started yet. */
        Resources held(String nodeId);

        /** Whether a plan's rank 0 on this node listens on this port. */
        boolean portTaken(String nodeId, int port);

        /** The port to try first on a node: the one after the last given there. */
        int nextPort(String nodeId);

        /**
         * Whether a starving gang that does not fit may look for room by preemption now (at most once
         * a {@code preemptive_scheduling_backoff}); asking counts as a try.
         */
        default boolean mayPreempt(String operationId, Instant now) {
            return false;
        }

        /** The gang reservation holding a node, or {@code null}. */
        default GangReservation reservation(String nodeId) {
            return null;
        }
    }

    private GangScheduling() {
    }

    /**
     * Plans every waiting gang of the index's tree that fits now; each plan is handed to
     * {@code accept} at once, so that the next gang sees it held.
     *
     * @param nodes the nodes of the tree
     * @return why each gang that did not fit waits, by operation id
     */
    public static Map<String, GangPlanner.Waiting> plan(SchedulingIndex index, Collection<Node> nodes, Held held,
            Instant now, Duration startTimeout, Consumer<GangPlan> accept) {
        Map<String, GangPlanner.Waiting> waiting = new LinkedHashMap<>();
        List<Integer> gangs = new ArrayList<>();
        for (int at : index.gangOperations) {
            Operation operation = index.operations[at];
            if (waits(index, at) && !held.planned(operation.id())) {
                gangs.add(at);
            }
        }
        gangs.sort(Comparator.comparingDouble(index::localSatisfaction));
        double[] treeFree = gangs.isEmpty() ? null : treeFree(nodes, held);
        Preemptibility statuses = null;
        for (int at : gangs) {
            Operation operation = index.operations[at];
            List<RankSlot> slots = pendingRanks(operation);
            List<GangPlanner.Rank> ranks = ranks(slots);
            double[] total = total(slots);
            double[] room = limitRoom(index, at);
            Resources shown = Resources.of(total).with(ResourceType.USER_SLOTS, 0);
            if (!Fits.fits(total, room)) {
                Resources left = Resources.of(room);
                waiting.put(operation.id(), new GangPlanner.Waiting(() -> "needs " + GangPlanner.describe(ranks)
                        + " at once, more than the resource limits of its pools or its own leave ("
                        + ResourceText.describe(left, shown) + ")", Map.of()));
                continue;
            }
            GangTopology topology = operation.spec().topology();
            GangPlanner.Constraint constraint = new GangPlanner.Constraint(topology.level(), topology.required());
            GangPlanner.Outcome outcome;
            Map<Node, double[]> eligible = null;
            if (!Fits.fits(total, treeFree)) {
                // the common case on a full cluster, found without looking at a node
                Resources free = Resources.of(treeFree);
                outcome = new GangPlanner.Waiting(() -> "needs " + GangPlanner.describe(ranks)
                        + " at once; the tree's nodes have " + ResourceText.describe(free, shown) + " free in all",
                        Map.of());
            } else {
                eligible = eligible(index, at, nodes, held, slots, now);
                outcome = GangPlanner.plan(ranks, candidates(eligible), constraint, index.config.mainResource());
            }
            GangPlan made = null;
            if (outcome instanceof GangPlanner.Planned planned) {
                made = plan(index, operation, slots, planned, nodes, held, now, startTimeout, List.of());
            } else if (index.priority[at].compareTo(StarvationStatus.STARVING) >= 0 && held.mayPreempt(operation.id(), now)) {
                Map<Node, double[]> preemptible = new LinkedHashMap<>(
                        eligible != null ? eligible : eligible(index, at, nodes, held, slots, now));
                // another gang's reserved nodes are not freed for this one
                preemptible.keySet().removeIf(node -> held.reservation(node.id()) != null
                        && !held.reservation(node.id()).operationId().equals(operation.id()));
                if (statuses == null) {
                    statuses = new Preemptibility(index, now);
                }
                GangPreemption.Choice choice = GangPreemption.choose(index, at, preemptible, ranks, constraint, statuses,
                        now);
                if (choice != null) {
                    made = plan(index, operation, slots, new GangPlanner.Planned(choice.nodeOfRank(), choice.domain()),
                            nodes, held, now, startTimeout, victims(index, operation, choice, ranks, topology, now));
                }
            }
            if (made == null) {
                waiting.put(operation.id(), (GangPlanner.Waiting) outcome);
                continue;
            }
            accept.accept(made);
            for (int r = 0; r < total.length; r++) {
                // a plan made by preemption takes room that was not free: what is free is not less than nothing
                treeFree[r] = Math.max(0, treeFree[r] - total[r]);
            }
        }
        return waiting;
    }

    /** The victims of a gang's preemption, each told which gang, pool and domain took it and what it loses. */
    private static List<GangPlan.Victim> victims(SchedulingIndex index, Operation operation, GangPreemption.Choice choice,
            List<GangPlanner.Rank> ranks, GangTopology topology, Instant now) {
        String pool = index.parent[index.indexOf(operation.id())] < 0 ? null
                : index.ids[index.parent[index.indexOf(operation.id())]];
        String where = choice.domain() == null ? "" : " in " + topology.level() + " " + choice.domain();
        String reason = choice.stage().reason.name().toLowerCase(Locale.ROOT);
        List<GangPlan.Victim> out = new ArrayList<>();
        for (Job job : choice.victims()) {
            long lost = Math.max(0, now.toEpochMilli() - job.workSinceMs()) / 1000;
            out.add(new GangPlan.Victim(job.id(), job.nodeId(), reason, "preempted for gang " + operation.id()
                    + (pool == null ? "" : " in pool " + pool) + ", whose " + GangPlanner.describe(ranks) + " need room"
                    + where + ", " + reason.replace('_', ' ') + " in tree " + index.tree + "; it loses " + lost
                    + " s of work " + (job.lastCheckpoint() == null ? "(no checkpoint reported)" : "since its last checkpoint")));
        }
        return out;
    }

    /** What is free on the online nodes that start jobs, less what plans hold, in all. */
    private static double[] treeFree(Collection<Node> nodes, Held held) {
        double[] free = new double[SchedulingIndex.N];
        for (Node node : nodes) {
            if (node.state() != Node.State.ONLINE || !node.schedulable()) {
                continue;
            }
            double[] limits = node.limits().toArray();
            double[] used = node.usage().toArray();
            double[] hold = held.held(node.id()).toArray();
            for (int r = 0; r < free.length; r++) {
                free[r] += Math.max(0, limits[r] - used[r] - hold[r]);
            }
        }
        return free;
    }

    /** Whether a gang waits to be planned: it runs in the tree, its pool is not paused, nothing of it runs, jobs pend. */
    static boolean waits(SchedulingIndex index, int at) {
        Operation operation = index.operations[at];
        return operation.runsIn(index.tree) && !index.paused[at] && operation.runningJobCount() == 0
                && operation.pendingJobCount() > 0;
    }

    /** A pending job of the gang: its rank, task and index. */
    private record RankSlot(int rank, int position, TaskSpec task, int index, Resources resources) {
    }

    /** The gang's pending jobs as ranks: task by task in the spec's order, each task's indexes after the tasks before. */
    private static List<RankSlot> pendingRanks(Operation operation) {
        List<RankSlot> slots = new ArrayList<>();
        int offset = 0;
        for (int t = 0; t < operation.taskCount(); t++) {
            TaskSpec task = operation.task(t);
            List<Integer> indexes = new ArrayList<>();
            operation.pendingIndexes(task.name()).forEach(indexes::add);
            indexes.sort(null);
            for (int index : indexes) {
                slots.add(new RankSlot(offset + index, t, task, index, task.jobResources()));
            }
            offset += task.jobCount();
        }
        return slots;
    }

    /** The nodes the gang may go to, each with what is free on it for the gang (less what plans hold). */
    private static Map<Node, double[]> eligible(SchedulingIndex index, int at, Collection<Node> nodes, Held held,
            List<RankSlot> slots, Instant now) {
        long disk = 0;
        boolean images = false;
        for (RankSlot slot : slots) {
            disk = Math.max(disk, slot.task.diskSpace());
            images |= slot.task.image() != null;
        }
        Map<Node, double[]> out = new LinkedHashMap<>();
        for (Node node : nodes) {
            if (node.state() != Node.State.ONLINE || !node.schedulable()
                    || node.condition().diskForJobs() < disk || images && !node.condition().runsImages()
                    || !index.tagsAllow(at, node.tags())) {
                continue;
            }
            double[] free = node.limits().toArray();
            double[] used = node.usage().toArray();
            Resources holds = held.held(node.id());
            double[] hold = holds.toArray();
            for (int r = 0; r < free.length; r++) {
                free[r] = Math.max(0, free[r] - used[r] - hold[r]);
            }
            GangReservation reserved = held.reservation(node.id());
            if (reserved != null && !reserved.operationId().equals(index.operations[at].id())
                    && !endsBy(index, at, slots, now, reserved.start())) {
                // another gang's reservation: only what it leaves beside what it needs
                double[] beside = Reservations.longRoom(index, node, reserved, holds, Set.of());
                for (int r = 0; r < free.length; r++) {
                    free[r] = Math.max(0, Math.min(free[r], beside[r]));
                }
            }
            out.put(node, free);
        }
        return out;
    }

    /** Whether every rank of the gang, started now, is bounded to end by {@code start}. */
    private static boolean endsBy(SchedulingIndex index, int at, List<RankSlot> slots, Instant now, Instant start) {
        for (RankSlot slot : slots) {
            if (!Reservations.endsBy(index, at, slot.position, now, start)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the gang {@code operationId} starves waiting for room: it waits to be planned, no tree
     * plans it, it is starving, and the limits on its path leave room for all of it (a gang held back
     * by limits waits for them, not for room, and gets no reservation).
     */
    public static boolean starvesForRoom(SchedulingIndex index, String operationId, Held held) {
        int at = index.indexOf(operationId);
        return at >= 0 && starvesForRoom(index, at, held);
    }

    /**
     * Whether the gang {@code operationId} still waits for room as a reserved gang does: as
     * {@link #starvesForRoom}, with a fair share above zero instead of a starving status (which a
     * restarted scheduler takes a {@code fair_share_starvation_timeout} to find again); in a tree
     * with no resources yet, waiting whole is enough.
     */
    public static boolean waitsForRoom(SchedulingIndex index, String operationId, Held held) {
        int at = index.indexOf(operationId);
        if (at < 0) {
            return false;
        }
        double share = 0;
        double total = 0;
        for (int r = 0; r < SchedulingIndex.N; r++) {
            share = Math.max(share, index.fairShare[at * SchedulingIndex.N + r]);
            total += index.total[r];
        }
        // a tree without resources yet (its nodes reconnecting after a restart) gives no fair share to judge by
        return (share > 0 || total == 0) && waitsWhole(index, at, held);
    }

    /** The tree's gangs that starve waiting for room ({@link #starvesForRoom}), by operation id. */
    public static List<String> starvingForRoom(SchedulingIndex index, Held held) {
        List<String> out = new ArrayList<>();
        for (int at : index.gangOperations) {
            if (starvesForRoom(index, at, held)) {
                out.add(index.operations[at].id());
            }
        }
        return out;
    }

    private static boolean starvesForRoom(SchedulingIndex index, int at, Held held) {
        return index.priority[at].compareTo(StarvationStatus.STARVING) >= 0 && waitsWhole(index, at, held);
    }

    /** Waits to be planned, no tree plans it, and the limits on its path leave room for all of it. */
    private static boolean waitsWhole(SchedulingIndex index, int at, Held held) {
        if (!waits(index, at) || held.planned(index.operations[at].id())) {
            return false;
        }
        return Fits.fits(total(pendingRanks(index.operations[at])), limitRoom(index, at));
    }

    /** What all of the gang's pending ranks order together. */
    private static double[] total(List<RankSlot> slots) {
        double[] total = new double[SchedulingIndex.N];
        for (RankSlot slot : slots) {
            for (int r = 0; r < total.length; r++) {
                total[r] += slot.resources.get(r);
            }
        }
        return total;
    }

    /** What the resource limits on the operation's path (its own among them) leave it. */
    private static double[] limitRoom(SchedulingIndex index, int at) {
        double[] room = new double[SchedulingIndex.N];
        Arrays.fill(room, Double.POSITIVE_INFINITY);
        index.limitRoom(at, room);
        return room;
    }

    private static List<GangPlanner.Rank> ranks(List<RankSlot> slots) {
        List<GangPlanner.Rank> ranks = new ArrayList<>();
        for (RankSlot slot : slots) {
            ranks.add(new GangPlanner.Rank(slot.rank, slot.resources));
        }
        return ranks;
    }

    /**
     * A reservation for the starving gang {@code operationId} ({@link Reservations#choose}), on nodes no
     * other reservation holds; {@code null} when none can hold it.
     */
    public static GangReservation reserve(SchedulingIndex index, String operationId, Collection<Node> nodes, Held held,
            Instant now) {
        int at = index.indexOf(operationId);
        List<RankSlot> slots = pendingRanks(index.operations[at]);
        Map<Node, double[]> eligible = eligible(index, at, nodes, held, slots, now);
        eligible.keySet().removeIf(node -> held.reservation(node.id()) != null);
        GangTopology topology = index.operations[at].spec().topology();
        return Reservations.choose(index, at, eligible, ranks(slots),
                new GangPlanner.Constraint(topology.level(), topology.required()), now);
    }

    private static List<GangPlanner.Candidate> candidates(Map<Node, double[]> eligible) {
        List<GangPlanner.Candidate> out = new ArrayList<>();
        eligible.forEach((node, free) -> out.add(new GangPlanner.Candidate(node.id(), node.topology(), Resources.of(free))));
        return out;
    }

    /** The plan of a placement: each rank's node and the variables its job gets. */
    private static GangPlan plan(SchedulingIndex index, Operation operation, List<RankSlot> slots,
            GangPlanner.Planned planned, Collection<Node> nodes, Held held, Instant now, Duration startTimeout,
            List<GangPlan.Victim> victims) {
        Map<String, Node> byId = new HashMap<>();
        for (Node node : nodes) {
            byId.put(node.id(), node);
        }
        List<String> hosts = new ArrayList<>();
        List<String> nodeOrder = new ArrayList<>();
        Map<String, Integer> perNode = new HashMap<>();
        for (RankSlot slot : slots) {
            String nodeId = planned.nodeOfRank().get(slot.rank);
            Node node = byId.get(nodeId);
            hosts.add(node.address() != null ? node.address() : nodeId);
            if (!nodeOrder.contains(nodeId)) {
                nodeOrder.add(nodeId);
            }
            perNode.merge(nodeId, 1, Integer::sum);
        }
        String master = planned.nodeOfRank().get(slots.get(0).rank);
        int port = masterPort(held, master);
        Map<String, Integer> local = new HashMap<>();
        List<GangPlan.Rank> ranks = new ArrayList<>();
        for (int i = 0; i < slots.size(); i++) {
            RankSlot slot = slots.get(i);
            String nodeId = planned.nodeOfRank().get(slot.rank);
            Map<String, String> env = new LinkedHashMap<>();
            env.put("GROVE_GANG_RANK", Integer.toString(i));
            env.put("GROVE_GANG_SIZE", Integer.toString(slots.size()));
            env.put("GROVE_GANG_HOSTS", String.join(",", hosts));
            env.put("MASTER_ADDR", hosts.get(0));
            env.put("MASTER_PORT", Integer.toString(port));
            env.put("WORLD_SIZE", Integer.toString(slots.size()));
            env.put("RANK", Integer.toString(i));
            env.put("NODE_RANK", Integer.toString(nodeOrder.indexOf(nodeId)));
            env.put("GROVE_GANG_NODES", Integer.toString(nodeOrder.size()));
            env.put("LOCAL_RANK", Integer.toString(local.merge(nodeId, 1, Integer::sum) - 1));
            env.put("LOCAL_WORLD_SIZE", Integer.toString(perNode.get(nodeId)));
            ranks.add(new GangPlan.Rank(operation.id(), i, slot.position, slot.task.name(), slot.index, nodeId, slot.resources, env));
        }
        GangTopology topology = operation.spec().topology();
        String domain = planned.domain() == null ? null : topology.level() + " " + planned.domain();
        return new GangPlan(operation.id(), index.tree, now, now.plus(startTimeout), domain, ranks, port, victims);
    }

    /** The first port of the range, from the node's turn on, that no plan's rank 0 there listens on. */
    private static int masterPort(Held held, String nodeId) {
        int start = held.nextPort(nodeId);
        for (int k = 0; k < MASTER_PORTS; k++) {
            int port = FIRST_MASTER_PORT + Math.floorMod(start - FIRST_MASTER_PORT + k, MASTER_PORTS);
            if (!held.portTaken(nodeId, port)) {
                return port;
            }
        }
        return FIRST_MASTER_PORT + Math.floorMod(start - FIRST_MASTER_PORT, MASTER_PORTS);
    }
}
