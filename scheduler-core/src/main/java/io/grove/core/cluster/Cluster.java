package io.grove.core.cluster;

import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.FairShareUpdate;
import io.grove.core.fairshare.IntegralState;
import io.grove.core.node.Node;
import io.grove.core.node.NodeFilter;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationRegistry;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolPause;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.preempt.StarvationTracker;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.GangReservation;
import io.grove.core.schedule.Heartbeat;
import io.grove.core.schedule.HeartbeatScheduler;
import io.grove.core.schedule.SchedulingIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The scheduler's state and its single writer. Time comes in as {@code now}; nothing here reads a
 * clock, starts a thread or does I/O. A heartbeat is handled in three steps: the node's reports
 * are applied ({@link #report}), a {@link Decision} is computed without changing anything
 * ({@link #decide}), and the decision is applied ({@link #apply}); {@link #heartbeat} does all
 * three. Fair shares are recomputed by {@link #updateFairShare}; until the first update of a
 * tree, its nodes get nothing.
 */
public final class Cluster implements ClusterView {

    private final ClusterSettings settings;
    private PoolsConfig config;
    private final OperationRegistry registry;
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, TreeState> trees = new LinkedHashMap<>();
    private final PoolPauses pauses;
    private final TopologyCounts topologies = new TopologyCounts(trees);
    private final ClusterRevival revival = new ClusterRevival(this);
    private final Gangs gangs = new Gangs(this, trees);
    private final TimeLimits timeLimits = new TimeLimits();
    private final RunAhead ahead = new RunAhead(this, trees);
    private final NodeDrains drains = new NodeDrains(this);

    public Cluster(PoolsConfig config, ClusterSettings settings) {
        this.settings = settings;
        this.config = config;
        this.registry = new OperationRegistry(config);
        this.pauses = new PoolPauses(trees, registry);
        for (PoolTreeConfig tree : config.trees().values()) {
            trees.put(tree.name(), new TreeState(NodeFilter.parse(tree.nodesFilter()), tree.topologyLevels()));
        }
        topologies.refresh();
    }

    /** The operations and running jobs, with their writers. */
    @Override
    public OperationRegistry registry() {
        return registry;
    }

    @Override
    public PoolsConfig config() {
        return config;
    }

    @Override
    public ClusterSettings settings() {
        return settings;
    }

    /** What puts back the state of before a restart (or into a forecast's copy). */
    public ClusterRevival revival() {
        return revival;
    }

    /**
     * Takes a new, validated pool configuration whole — filters, pools and limits change at once and
     * nodes are reassigned to trees — or refuses it whole when it removes a pool or tree that
     * unfinished operations use.
     *
     * @return operations that started running because limits grew
     * @throws io.grove.core.operation.ReloadRefusedException naming the pools and their operations
     */
    public List<OperationRegistry.Activation> reconfigure(PoolsConfig config) {
        List<OperationRegistry.Activation> activated = registry.reconfigure(config);
        this.config = config;
        trees.keySet().retainAll(config.trees().keySet());
        for (PoolTreeConfig tree : config.trees().values()) {
            NodeFilter filter = NodeFilter.parse(tree.nodesFilter());
            TreeState state = trees.computeIfAbsent(tree.name(), name -> new TreeState(filter, tree.topologyLevels()));
            state.nodesFilter = filter;
            if (!state.topology.levels().equals(tree.topologyLevels())) {
                topologies.relevel(tree.name(), tree.topologyLevels());
            }
            // a pause of a pool the configuration no longer has goes with it
            state.pauses.keySet().removeIf(pool -> registry.pools(tree.name()) == null
                    || !registry.pools(tree.name()).contains(pool));
        }
        topologies.refresh();
        for (Node node : nodes.values()) {
            assignTree(node);
            counted(node);
        }
        return activated;
    }

    /** Registers a submission; see {@link OperationRegistry#submit}. */
    public Operation submit(String id, OperationSpec spec, String user, Instant now) {
        checkGang(spec);
        return registry.submit(id, spec, user, now);
    }

    /**
     * Refuses a gang that can never start: a topology level its tree does not know, or more ranks
     * than any domain of its required level (or the tree) holds with every node empty.
     *
     * @throws io.grove.core.operation.SubmitException saying why
     */
    public void checkGang(OperationSpec spec) {
        gangs.checkSubmit(spec);
    }

    /** The gangs' part of the state. */
    Gangs gangs() {
        return gangs;
    }

    /** The running jobs' time limits. */
    TimeLimits timeLimits() {
        return timeLimits;
    }

    /** Who hears of gangs planned, started and restarting. */
    public void gangListener(GangListener listener) {
        gangs.listener(listener);
    }

    /**
     * The nodes to ask to heartbeat now — those a gang's plan just gave ranks, those with jobs to stop
     * (a restarting gang's ranks, jobs past their time limit) — each once since the last call.
     */
    public List<String> takeNudges() {
        return gangs.takeNudges();
    }

    /** Aborts an operation; its running jobs end now and their nodes are told on their next heartbeat. */
    public OperationRegistry.JobEnd abort(String id, Instant now, String message) {
        OperationRegistry.JobEnd end = registry.abort(id, now, message);
        forgetJobs(end.abortedWithOperation(), "operation " + id + " was aborted: " + message);
        gangs.forget(id);
        return end;
    }

    /**
     * Updates an operation's weight, limits or pool at run time; see {@link OperationRegistry#update}.
     * Fair shares follow at the next update.
     */
    public List<OperationRegistry.Activation> updateOperation(String id, Double weight, Resources limits, String tree,
            String pool) {
        return registry.update(id, weight, limits, tree, pool);
    }

    @Override
    public Node node(String id) {
        return nodes.get(id);
    }

    @Override
    public Collection<Node> nodes() {
        return Collections.unmodifiableCollection(nodes.values());
    }

    /** The nodes by id, for the collaborators of this package that add and forget them. */
    Map<String, Node> nodeMap() {
        return nodes;
    }

    void assignTree(Node node) {
        TreeState.assign(trees, node);
        TreeState tree = node.tree() == null ? null : trees.get(node.tree());
        if (tree != null) {
            tree.gangs.dirty = true;
        }
    }

    /**
     * Marks silent nodes offline after {@code node_heartbeat_timeout} and forgets them after
     * {@code node_registration_timeout}, aborting their jobs so that they run elsewhere.
     *
     * @return the jobs aborted because their node was lost
     */
    public List<Job> checkNodes(Instant now) {
        List<Job> lost = NodeReports.checkLiveness(this, nodes, topologies, now);
        gangs.expire(now);
        gangs.keepReservations(now);
        timeLimits.enforce(this, now);
        for (TreeState tree : trees.values()) {
            tree.offers.expire(now).forEach(gangs::nudge);
        }
        return lost;
    }

    /** Applies the node's reports, decides, and applies the decision. */
    public Decision heartbeat(Heartbeat heartbeat, Instant now) {
        report(heartbeat, now);
        Decision decision = decide(heartbeat, now);
        apply(decision, now);
        return decision;
    }

    /**
     * Applies what a heartbeat reports: the node's tags and limits (registering a new node), jobs
     * that ended on it, and jobs the scheduler placed there that the node no longer has.
     *
     * @return the jobs that ended
     */
    public List<Job> report(Heartbeat heartbeat, Instant now) {
        List<Job> ended = NodeReports.apply(this, nodes, heartbeat, now);
        Node node = nodes.get(heartbeat.nodeId());
        counted(node);
        gangs.planIfChanged(node.tree(), now, false);
        return ended;
    }

    /** The answer to a heartbeat whose reports were applied; changes nothing. */
    public Decision decide(Heartbeat heartbeat, Instant now) {
        Node node = nodes.get(heartbeat.nodeId());
        if (node == null) {
            throw new IllegalArgumentException("node " + heartbeat.nodeId() + " has not reported yet");
        }
        SchedulingIndex index = node.tree() == null ? null : trees.get(node.tree()).index;
        return HeartbeatScheduler.decide(index, node, heartbeat, now, registry, settings.descentShortcuts(),
                gangs.due(node), node.tree() == null ? null : trees.get(node.tree()).offers, reservationOn(node));
    }

    /**
     * Applies a decision: new jobs run, then victims and aborted jobs end (in this order, so that
     * an index put back by an abort does not take the place of one the decision planned), and the
     * node's preemptive backoff starts.
     */
    public void apply(Decision decision, Instant now) {
        DecisionApply.apply(this, decision, now);
    }

    /** Counts a node as it is now in its tree's topology; after anything that changes its tree, state, limits or jobs. */
    void counted(Node node) {
        topologies.counted(node);
    }

    void endJob(Job job, JobState state, Instant now, JobEndReason reason, String message) {
        if (reason == JobEndReason.ABORTED_BY_NODE && TimeLimits.stoppedFor(job)) {
            state = JobState.FAILED;
            reason = JobEndReason.TIME_LIMIT;
        }
        boolean gang = registry.operation(job.operationId()).spec().gang();
        if (gang) {
            reason = gangs.reasonFor(job, state, reason);
            state = reason == JobEndReason.GANG_RESTART ? JobState.ABORTED : state;
        }
        if (job.preemptedFor() != null && state != JobState.COMPLETED && reason != JobEndReason.TIME_LIMIT) {
            job.lostWork(now.toEpochMilli());
        }
        OperationRegistry.JobEnd end = registry.endJob(job.id(), state, now, reason, message);
        Node node = nodes.get(job.nodeId());
        if (node != null) {
            node.removeJob(job);
            if (state == JobState.ABORTED && reason != JobEndReason.ABORTED_BY_NODE) {
                node.endedByScheduler(job.id(), message);
            }
            counted(node);
        }
        jobEndedInIndex(job);
        forgetJobs(end.abortedWithOperation(), end.job().operationId() + " " + end.operationState().name().toLowerCase());
        if (gang) {
            gangs.ended(job, state);
        }
    }

    private void forgetJobs(List<Job> jobs, String why) {
        for (Job job : jobs) {
            Node node = nodes.get(job.nodeId());
            if (node != null) {
                node.removeJob(job);
                node.endedByScheduler(job.id(), why);
                counted(node);
            }
            jobEndedInIndex(job);
        }
    }

    private void jobEndedInIndex(Job job) {
        timeLimits.ended(job.id());
        TreeState tree = trees.get(job.tree());
        if (tree != null && tree.index != null) {
            tree.index.jobEnded(job);
            tree.gangs.dirty = true;
        }
    }

    /** Runs the fair-share update of every tree and publishes the results to heartbeats. */
    public void updateFairShare(Instant now) {
        for (String tree : trees.keySet()) {
            updateFairShare(tree, now);
        }
    }

    /** Runs one tree's update: totals from its online nodes, demands from its running operations. */
    public FairShareResult updateFairShare(String treeName, Instant now) {
        return publishFairShare(computeFairShare(prepareFairShare(treeName, now)));
    }

    /**
     * The first step of an update, on the writer's thread: the update's input from the live state.
     * The second, {@link #computeFairShare}, may run on any thread while heartbeats go on; the
     * third, {@link #publishFairShare}, is the writer's again.
     */
    public PreparedUpdate prepareFairShare(String treeName, Instant now) {
        TreeState tree = trees.get(treeName);
        if (tree == null) {
            throw new IllegalArgumentException("no pool tree '" + treeName + "'");
        }
        return UpdateInputs.prepare(treeName, tree, nodes.values(), registry, now);
    }

    @Override
    public FairShareInput whatIfInput(String tree, PoolTreeConfig candidate, Instant now) {
        return UpdateInputs.whatIf(prepareFairShare(tree, now), registry.pools(tree).effectiveConfig(candidate), nodes.values());
    }

    /**
     * The pure middle step of an update; safe on any thread, one update of a tree at a time (its
     * workspace refuses a second with {@link IllegalStateException}).
     */
    public static ComputedUpdate computeFairShare(PreparedUpdate prepared) {
        FairShareResult result = FairShareUpdate.run(prepared.input(), prepared.workspace());
        return new ComputedUpdate(prepared, result, new ArrayList<>(result.elements().values()));
    }

    /** Pauses a pool of a tree ({@link PoolPause}); {@link IllegalArgumentException} if the tree has no such pool. */
    public void pause(PoolPause pause) {
        pauses.pause(pause);
    }

    @Override
    public NodeDrains drains() {
        return drains;
    }

    /** Resumes a paused pool (nothing when it is not paused); returns whether it was. */
    public boolean resume(String tree, String pool) {
        return pauses.resume(tree, pool);
    }

    @Override
    public Map<String, PoolPause> pauses(String tree) {
        return pauses.of(tree);
    }

    @Override
    public PoolPause pauseOf(String tree, Operation operation) {
        return pauses.holding(tree, operation);
    }

    /**
     * The nodes whose heartbeat now could start a job of work the last publication brought, at most
     * {@code limit}, none heard from within {@code quiet}; nothing is asked twice ({@link NewWork}).
     */
    public List<String> nodesForNewWork(Instant now, Duration quiet, int limit) {
        return NewWork.nodes(trees, nodes.values(), now, quiet, limit);
    }

    /** What a forecast's copy needs to run ahead of time. */
    public RunAhead ahead() {
        return ahead;
    }

    /**
     * Publishes a computed update to heartbeats: starvation, the scheduling index, integral state;
     * aborts the operations whose dependencies can never hold ({@link UpdatePublish}).
     */
    public FairShareResult publishFairShare(ComputedUpdate computed) {
        return UpdatePublish.publish(this, trees, computed);
    }

    @Override
    public Map<String, IntegralState> integralState(String tree) {
        return ofTree(tree, state -> state.integralState, Map.of());
    }

    @Override
    public Map<String, StarvationTracker.Below> belowFairShare(String tree) {
        return ofTree(tree, state -> state.starvation.belowAll(), Map.of());
    }

    @Override
    public StarvationTracker.Below belowFairShare(String tree, String element) {
        return ofTree(tree, state -> state.starvation.below(element), null);
    }

    @Override
    public Instant lastUpdate(String tree) {
        return ofTree(tree, state -> state.lastUpdate, null);
    }

    @Override
    public TopologyIndex topology(String tree) {
        return ofTree(tree, state -> state.topology, null);
    }

    @Override
    public GangStatus gang(String tree, String operationId) {
        return ofTree(tree, state -> state.gangs.status(operationId, state.reservations), GangStatus.NONE);
    }

    @Override
    public List<GangReservation> reservations(String tree) {
        return ofTree(tree, state -> state.reservations.all(), List.of());
    }

    @Override
    public Map<String, Instant> gangsStarving(String tree) {
        return ofTree(tree, state -> state.reservations.starving(), Map.of());
    }

    @Override
    public GangReservation reservationOn(Node node) {
        // asked on every heartbeat: a plain lookup, no lambda to capture
        TreeState state = node.tree() == null ? null : trees.get(node.tree());
        return state == null ? null : state.reservations.on(node.id());
    }

    @Override
    public Set<String> treeNames() {
        return Collections.unmodifiableSet(trees.keySet());
    }

    @Override
    public FairShareResult fairShare(String tree) {
        return ofTree(tree, state -> state.result, null);
    }

    @Override
    public List<ElementShares> elements(String tree) {
        return ofTree(tree, state -> state.elements, List.of());
    }

    @Override
    public SchedulingIndex schedulingIndex(String tree) {
        return ofTree(tree, state -> state.index, null);
    }

    TreeState treeState(String tree) {
        return trees.get(tree);
    }

    /** {@code read} of the tree's state, or {@code none} when there is no such tree. */
    private <T> T ofTree(String tree, Function<TreeState, T> read, T none) {
        TreeState state = trees.get(tree);
        return state == null ? none : read.apply(state);
    }

    @Override
    public Map<String, StarvationStatus> starving(String tree) {
        return ofTree(tree, state -> state.starving, Map.of());
    }
}
