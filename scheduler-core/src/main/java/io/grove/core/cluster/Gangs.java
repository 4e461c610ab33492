package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.SubmitError;
import io.grove.core.operation.SubmitException;
import io.grove.core.operation.TaskSpec;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.GangPlan;
import io.grove.core.schedule.GangPlanner;
import io.grove.core.schedule.GangReservation;
import io.grove.core.schedule.GangScheduling;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cluster's gangs (docs/scheduling.md#gangs): plans them when something may let one fit,
 * hands each planned node its ranks, drops a plan whole when a node leaves or is late, and stops
 * every rank of a gang one of whose ranks ended otherwise than completing, so that it starts again
 * as a whole. Works on the cluster's state, on its writer's thread.
 */
final class Gangs {

    /** The least time between two tries to plan a tree's gangs on heartbeats. */
    static final Duration MIN_INTERVAL = Duration.ofMillis(100);

    private final Cluster cluster;
    private final Map<String, TreeState> trees;
    private final Set<String> nudges = new LinkedHashSet<>();
    private GangListener listener = GangListener.NONE;

    Gangs(Cluster cluster, Map<String, TreeState> trees) {
        this.cluster = cluster;
        this.trees = trees;
    }

    void listener(GangListener value) {
        this.listener = value == null ? GangListener.NONE : value;
    }

    /** A node to ask to heartbeat now (jobs to start or to stop there). */
    void nudge(String nodeId) {
        nudges.add(nodeId);
    }

    /** The nodes that should heartbeat now (planned ranks, jobs to stop), once each. */
    List<String> takeNudges() {
        if (nudges.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(nudges);
        nudges.clear();
        return out;
    }

    /**
     * Plans the tree's waiting gangs if something changed since the last try, and the last try was
     * on a heartbeat at least {@link #MIN_INTERVAL} ago (a publication's try is not held back, and
     * holds none back): a cluster whose jobs end on every heartbeat does not pay a plan per heartbeat.
     */
    void planIfChanged(String tree, Instant now, boolean published) {
        TreeState state = tree == null ? null : trees.get(tree);
        if (state == null || state.index == null || !state.index.hasGangs() || !state.gangs.dirty) {
            return;
        }
        if (!published && state.gangs.lastTry != null && now.isBefore(state.gangs.lastTry.plus(MIN_INTERVAL))) {
            return;
        }
        state.gangs.dirty = false;
        if (!published) {
            state.gangs.lastTry = now;
        }
        stopPartial(tree, state);
        List<Node> nodes = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            if (tree.equals(node.tree())) {
                nodes.add(node);
            }
        }
        GangScheduling.Held held = held(tree, state);
        state.gangs.waiting(GangScheduling.plan(state.index, nodes, held, now,
                cluster.settings().gangStartTimeout(), plan -> {
                    state.gangs.add(plan);
                    unreserve(state, plan.operationId(), "the gang was planned: " + plan.describe());
                    state.reservations.notStarving(plan.operationId());
                    nudges.addAll(plan.nodes());
                    for (GangPlan.Victim victim : plan.victims()) {
                        Node node = cluster.node(victim.nodeId());
                        if (node != null) {
                            node.interrupt(victim.jobId(), victim.reason(), victim.why(), plan.operationId());
                            nudges.add(node.id());
                        }
                    }
                    listener.planned(plan);
                }));
    }

    /** What a tree's gang planning sees of its plans and reservations. */
    GangScheduling.Held held(String tree, TreeState state) {
        return new GangScheduling.Held() {
            @Override
            public boolean planned(String operationId) {
                return anyTree(operationId, true);
            }

            @Override
            public Resources held(String nodeId) {
                return state.gangs.held(nodeId);
            }

            @Override
            public boolean portTaken(String nodeId, int port) {
                return state.gangs.portTaken(nodeId, port);
            }

            @Override
            public int nextPort(String nodeId) {
                return state.gangs.nextPort(nodeId);
            }

            @Override
            public boolean mayPreempt(String operationId, Instant at) {
                return state.gangs.mayPreempt(operationId, at,
                        cluster.registry().pools(tree).effectiveConfig().preemption().preemptiveSchedulingBackoff());
            }

            @Override
            public GangReservation reservation(String nodeId) {
                return state.reservations.on(nodeId);
            }
        };
    }

    /** Looks after every tree's reservations ({@link ReservationKeeper}). */
    void keepReservations(Instant now) {
        for (Map.Entry<String, TreeState> tree : trees.entrySet()) {
            if (tree.getValue().index != null && (tree.getValue().index.hasGangs() || !tree.getValue().reservations.isEmpty())) {
                ReservationKeeper.keep(this, cluster, tree.getKey(), tree.getValue(), now);
            }
        }
    }

    /**
     * Drops the gang's reservation in the tree, if it has one, saying why; since when it has starved
     * stays (a gang that lost a node of its reservation gets another at once).
     */
    void unreserve(TreeState state, String operationId, String why) {
        GangReservation gone = state.reservations.remove(operationId);
        if (gone != null) {
            state.gangs.dirty = true;
            listener.unreserved(gone, why);
        }
    }

    /** A reservation made: its gang's journal and event stream hear of it. */
    void reserved(TreeState state, GangReservation reservation) {
        state.reservations.put(reservation);
        listener.reserved(reservation);
    }

    /**
     * A gang some of whose ranks run while others pend, with no plan being started and no restart
     * under way — its plan was lost with a restart of the scheduler between two of its starts — is
     * stopped, to start again as a whole: a gang never runs partially.
     */
    private void stopPartial(String tree, TreeState state) {
        for (Operation operation : state.index.gangs()) {
            if (operation.runningJobCount() > 0 && operation.pendingJobCount() > 0
                    && !anyTree(operation.id(), true) && !anyTree(operation.id(), false)) {
                stop(operation, tree, operation.runningJobCount() + " of its ranks run without the others (its plan "
                        + "was lost with a restart of the scheduler); the gang stops and starts again as a whole");
            }
        }
    }

    /** Whether some tree has a plan for the gang ({@code planned}), or has it restarting. */
    private boolean anyTree(String operationId, boolean planned) {
        for (TreeState tree : trees.values()) {
            if (planned ? tree.gangs.planned(operationId) : tree.gangs.restarting(operationId)) {
                return true;
            }
        }
        return false;
    }

    /** The ranks planned on a node that it has not started. */
    List<GangPlan.Rank> due(Node node) {
        TreeState state = node.tree() == null ? null : trees.get(node.tree());
        return state == null ? List.of() : state.gangs.due(node.id());
    }

    /** A gang's rank started on its node. */
    void started(Job job) {
        TreeState state = trees.get(job.tree());
        GangPlan plan = state == null ? null : state.gangs.plan(job.operationId());
        GangPlan.Rank rank = plan == null ? null : plan.rankOf(job.task().name(), job.index());
        if (rank != null) {
            plan.started(rank.rank(), job.id());
            if (plan.complete()) {
                listener.started(plan);
            }
        }
    }

    /**
     * What a gang's job ends as: a failure while its gang already restarts is not counted again,
     * and a rank its node stopped for the restart ended for it.
     */
    JobEndReason reasonFor(Job job, JobState state, JobEndReason reason) {
        TreeState tree = trees.get(job.tree());
        if (tree == null || !tree.gangs.restarting(job.operationId())) {
            return reason;
        }
        return state == JobState.FAILED || reason == JobEndReason.ABORTED_BY_NODE ? JobEndReason.GANG_RESTART : reason;
    }

    /** After a gang's job ended: a rank that did not complete stops every other, and the gang is planned again when none runs. */
    void ended(Job job, JobState state) {
        TreeState tree = trees.get(job.tree());
        Operation operation = cluster.registry().operation(job.operationId());
        if (tree == null || operation == null) {
            return;
        }
        GangPlans gangs = tree.gangs;
        if (operation.state().isFinished()) {
            gangs.forget(operation.id());
            return;
        }
        if (state != JobState.COMPLETED && !gangs.restarting(operation.id())) {
            // the failure's own message stays with its job: it may hold the tail of its stderr, which
            // must not travel to the other ranks' nodes and views
            String why = "rank " + operation.spec().jobNumber(job.task().name(), job.index()) + " (job " + job.id()
                    + " on node " + job.nodeId() + ") " + state.name().toLowerCase()
                    + (job.exitCode() == null ? "" : " with exit code " + job.exitCode())
                    + (job.endReason() == null ? "" : " (" + job.endReason().key() + ")")
                    + "; the gang stops and starts again as a whole";
            stop(operation, job.tree(), why);
        }
        GangPlan plan = gangs.plan(operation.id());
        boolean starting = plan != null && !plan.complete() && !gangs.restarting(operation.id());
        if (operation.runningJobCount() == 0 && !starting) {
            // a plan still being started keeps its other ranks even when the first ones completed already
            gangs.forget(operation.id());
        }
    }

    /** Stops every running rank of a gang gracefully, its plan going with it. */
    private void stop(Operation operation, String tree, String why) {
        trees.get(tree).gangs.markRestarting(operation.id());
        for (Job other : operation.runningJobsArray()) {
            Node node = cluster.node(other.nodeId());
            if (node != null && !other.interrupting()) {
                node.interrupt(other.id(), "gang_restart", why);
                nudges.add(node.id());
            }
        }
        listener.restarting(operation.id(), tree, why);
    }

    /**
     * Drops, whole, every plan whose node left or that did not start within its bound: its started
     * ranks are stopped (at once when their node is gone), and the gang is planned again when none runs
     * — never while one of them may still run on its node.
     */
    void expire(Instant now) {
        for (Map.Entry<String, TreeState> tree : trees.entrySet()) {
            GangPlans gangs = tree.getValue().gangs;
            for (Map.Entry<GangPlan, String> overdue : gangs.overdue(now, cluster.nodeMap()).entrySet()) {
                GangPlan plan = overdue.getKey();
                String why = "the gang's plan (" + plan.describe() + ") was dropped: " + overdue.getValue();
                gangs.markRestarting(plan.operationId());
                listener.restarting(plan.operationId(), tree.getKey(), why);
                gangs.drop(plan.operationId());
                for (String jobId : plan.startedJobs().values()) {
                    Job job = cluster.registry().runningJob(jobId);
                    Node node = job == null ? null : cluster.node(job.nodeId());
                    if (node != null && node.state() == Node.State.ONLINE) {
                        if (!job.interrupting()) {
                            node.interrupt(job.id(), "gang_restart", why);
                            nudges.add(node.id());
                        }
                    } else if (job != null) {
                        cluster.endJob(job, JobState.ABORTED, now, JobEndReason.GANG_RESTART, why);
                    }
                }
                Operation operation = cluster.registry().operation(plan.operationId());
                if (operation == null || operation.runningJobCount() == 0) {
                    gangs.forget(plan.operationId());
                }
            }
        }
    }

    /** The operation finished (aborted, failed): its plans and reservations go. */
    void forget(String operationId) {
        for (TreeState tree : trees.values()) {
            if (tree.gangs.planned(operationId) || tree.gangs.restarting(operationId)) {
                tree.gangs.forget(operationId);
            }
            unreserve(tree, operationId, "the operation finished");
            tree.reservations.notStarving(operationId);
        }
    }

    /**
     * Refuses a gang that can never run: a topology level its tree does not know, or more than any
     * domain of its required level (or the tree) holds even with every job gone. A tree with no
     * node yet refuses nothing for size (its nodes may be on their way).
     */
    void checkSubmit(OperationSpec spec) {
        if (!spec.gang()) {
            return;
        }
        List<String> treeNames = spec.poolTrees().isEmpty() ? List.of(cluster.registry().defaultTree()) : spec.poolTrees();
        GangTopology topology = spec.topology();
        for (String tree : treeNames) {
            TreeState state = trees.get(tree);
            if (state == null) {
                continue;   // the registry names the unknown tree
            }
            if (topology.constrained() && !state.topology.levels().contains(topology.level())) {
                throw new SubmitException(SubmitError.INVALID_SPEC, "topology: tree \"" + tree + "\" knows no level '"
                        + topology.level() + "'; its topology_levels: " + state.topology.levels(),
                        Map.of("pool_tree", tree));
            }
            List<GangPlanner.Candidate> empty = new ArrayList<>();
            for (Node node : cluster.nodes()) {
                // a node not heard from since a restart says nothing of what it has yet
                if (tree.equals(node.tree()) && !node.limits().equals(Resources.ZERO)) {
                    empty.add(new GangPlanner.Candidate(node.id(), node.topology(), node.limits()));
                }
            }
            if (empty.isEmpty()) {
                continue;
            }
            List<GangPlanner.Rank> ranks = new ArrayList<>();
            int rank = 0;
            for (TaskSpec task : spec.tasks().values()) {
                for (int i = 0; i < task.jobCount(); i++) {
                    ranks.add(new GangPlanner.Rank(rank++, task.jobResources()));
                }
            }
            GangPlanner.Outcome outcome = GangPlanner.plan(ranks, empty, new GangPlanner.Constraint(topology.level(),
                    topology.required()), cluster.config().trees().get(tree).mainResource());
            if (outcome instanceof GangPlanner.Waiting why) {
                throw new SubmitException(SubmitError.INVALID_SPEC, "the gang can never start in tree \"" + tree
                        + "\", even with every node empty: it " + why.why(), Map.of("pool_tree", tree));
            }
        }
    }
}
