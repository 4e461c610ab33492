package io.grove.core.schedule;

import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.Satisfaction;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.PreemptionMode;
import io.grove.core.pool.FifoPoolSchedulingOrder;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolPause;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.SchedulingMode;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One tree's published fair shares in flat arrays, plus live usage and a cache of each element's
 * best satisfaction, so that a heartbeat descent costs O(depth × log children) per started job
 * (each pool keeps its children in a {@link ChildTree}).
 *
 * <p>Element 0 is the root; pools and operations follow in tree order. An operation is
 * <em>active</em> when it runs in the tree, has pending jobs not yet planned in this decision,
 * and was not deactivated in this decision; a pool's cached satisfaction is that of its best
 * active child (the lowest, or in a FIFO pool scheduled in {@code fifo} order the first by FIFO
 * index); +∞ means nothing below is active. Rebuilt on every published fair-share update; usage
 * changes are applied between updates with {@link #addUsage}.
 */
public final class SchedulingIndex {

    static final int N = ResourceType.COUNT;
    private static final double INACTIVE = Double.POSITIVE_INFINITY;

    final String tree;
    final PoolTreeConfig config;
    final double[] total;
    final int size;
    final String[] ids;
    final int[] parent;
    final int[][] children;
    /** Each element's place among its parent's children. */
    private final int[] position;
    /** Each pool's children's cached values ({@code null} for elements without children). */
    private final ChildTree[] trees;
    final Operation[] operations;
    final PoolConfig[] pools;
    final boolean[] fifoScheduling;
    final double[] fairShare;
    final double[] demandShare;
    final double[] usage;
    final double[] limits;
    final double[] satisfaction;
    final StarvationStatus[] starvation;
    /** The most urgent starvation of the element or an ancestor: its preemption priority. */
    final StarvationStatus[] priority;
    /** Which preemption each element allows, inherited down the tree. */
    final PreemptionRights rights;
    /** Operations whose preemption priority is starving or more, in tree order (gangs excepted: they are planned). */
    final int[] starvingOperations;
    /** Gang operations, in tree order: planned whole ({@link GangScheduling}), never started by the descent. */
    final int[] gangOperations;
    /** Whether each element is a gang operation. */
    final boolean[] gang;
    /** What the current decision has planned, per operation and task. */
    final PlannedJobs plans;
    final boolean[] deactivated;
    /** What is left below each element: its active operations and their smallest job. */
    final SubtreeShapes shapes;
    /** The elements whose jobs may run only on nodes their tag filter matches. */
    final TagFilters tagFilters;
    /** Whether an element (root excluded) used more than its limits at build (limits lowered under running jobs). */
    final boolean anyOverLimits;
    /** Whether an operation of the tree is graceful (else no job is interrupted for being above its share). */
    final boolean anyGraceful;
    /** Elements in the subtree of a paused pool: no job of theirs starts ({@link PoolPause}). */
    final boolean[] paused;
    /** Elements in the subtree of a drained pool: their running jobs are stopped gracefully. */
    final boolean[] drained;
    /** Whether a pool of the tree is drained (else no heartbeat looks for jobs to drain). */
    boolean anyDrained;
    private final Map<String, Integer> index;
    private final double[] scratchFs = new double[N];
    private final double[] scratchUsage = new double[N];
    private final double[] scratchDemand = new double[N];

    SchedulingIndex(String tree, PoolTreeConfig config, List<ElementShares> elements, double[] total,
            Map<String, Operation> operationsById, Map<String, StarvationStatus> starvationById,
            Map<String, PoolPause> pauses) {
        this.tree = tree;
        this.paused = new boolean[elements.size()];
        this.drained = new boolean[elements.size()];
        this.config = config;
        this.total = total.clone();
        this.size = elements.size();
        this.ids = new String[size];
        this.parent = new int[size];
        this.operations = new Operation[size];
        this.pools = new PoolConfig[size];
        this.fifoScheduling = new boolean[size];
        this.fairShare = new double[size * N];
        this.demandShare = new double[size * N];
        this.usage = new double[size * N];
        this.limits = new double[size * N];
        this.satisfaction = new double[size];
        this.starvation = new StarvationStatus[size];
        this.priority = new StarvationStatus[size];
        this.rights = new PreemptionRights(size, config.preemption());
        this.plans = new PlannedJobs(operations);
        this.deactivated = new boolean[size];
        this.gang = new boolean[size];
        this.shapes = new SubtreeShapes(size);
        this.index = new HashMap<>(size * 4 / 3 + 1);
        PoolTree shape = PoolTree.of(config);

        List<List<int[]>> childLists = new ArrayList<>(size);
        TagFilters.Builder filters = new TagFilters.Builder();
        int at = 0;
        for (ElementShares element : elements) {
            ids[at] = element.id();
            index.put(element.id(), at);
            parent[at] = element.parent() == null ? -1 : index.get(element.parent());
            childLists.add(new ArrayList<>());
            if (parent[at] >= 0) {
                childLists.get(parent[at]).add(new int[] {at, element.fifoIndex()});
            }
            copy(element.fairShare().total(), fairShare, at);
            copy(element.demandShare(), demandShare, at);
            Arrays.fill(limits, at * N, at * N + N, Double.POSITIVE_INFINITY);
            if (element.kind() == ElementKind.OPERATION) {
                Operation operation = operationsById.get(element.id());
                operations[at] = operation;
                gang[at] = operation.spec().gang();
                setLimits(at, operation.spec().optionsFor(tree).resourceLimits().toArray());
                filters.add(at, operation.spec().optionsFor(tree).schedulingTagFilter());
                double[] own = operation.usageIn(tree).toArray();
                for (int a = at; a >= 0; a = parent[a]) {
                    for (int r = 0; r < N; r++) {
                        usage[a * N + r] += own[r];
                    }
                }
            } else if (element.kind() == ElementKind.POOL) {
                PoolConfig pool = shape.pool(element.id()).orElseThrow().config();
                pools[at] = pool;
                filters.add(at, pool.schedulingTagFilter());
                setLimits(at, pool.resourceLimits().toArray(Double.POSITIVE_INFINITY));
                if (pool.maxShareRatio() != null) {
                    double[] cap = new double[N];
                    for (int r = 0; r < N; r++) {
                        cap[r] = total[r] * pool.maxShareRatio();
                    }
                    setLimits(at, cap);
                }
                FifoPoolSchedulingOrder order = pool.fifoPoolSchedulingOrder() != null
                        ? pool.fifoPoolSchedulingOrder() : config.fifoPoolSchedulingOrder();
                fifoScheduling[at] = pool.mode() == SchedulingMode.FIFO && order == FifoPoolSchedulingOrder.FIFO;
            }
            rights.inherit(at, parent[at], pools[at], operations[at]);
            StarvationStatus own = starvationById.getOrDefault(element.id(), StarvationStatus.NON_STARVING);
            starvation[at] = own;
            priority[at] = parent[at] >= 0 ? own.max(priority[parent[at]]) : own;
            at++;
        }
        this.tagFilters = filters.build();
        this.anyOverLimits = overLimits();
        List<Integer> starving = new ArrayList<>();
        List<Integer> gangs = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (operations[i] != null && gang[i]) {
                gangs.add(i);
            } else if (operations[i] != null && priority[i] != StarvationStatus.NON_STARVING) {
                starving.add(i);
            }
        }
        this.starvingOperations = starving.stream().mapToInt(Integer::intValue).toArray();
        this.gangOperations = gangs.stream().mapToInt(Integer::intValue).toArray();
        markPaused(pauses);
        this.children = ChildTree.ordered(childLists, fifoScheduling);
        this.position = new int[size];
        this.trees = new ChildTree[size];
        for (int i = 0; i < size; i++) {
            for (int c = 0; c < children[i].length; c++) {
                position[children[i][c]] = c;
            }
            if (children[i].length > 0) {
                trees[i] = new ChildTree(children[i].length);
            }
        }
        boolean graceful = false;
        for (int i = size - 1; i >= 0; i--) {
            recompute(i);
            graceful |= operations[i] != null
                    && operations[i].spec().preemptionMode() == PreemptionMode.GRACEFUL;
        }
        this.anyGraceful = graceful;
    }

    /** Marks the subtrees of paused and drained pools (parents come before their children). */
    private void markPaused(Map<String, PoolPause> pauses) {
        anyDrained = false;
        for (int at = 0; at < size; at++) {
            PoolPause own = pools[at] == null ? null : pauses.get(ids[at]);
            boolean parentPaused = parent[at] >= 0 && paused[parent[at]];
            boolean parentDrained = parent[at] >= 0 && drained[parent[at]];
            paused[at] = own != null || parentPaused;
            drained[at] = own != null && own.drain() || parentDrained;
            anyDrained |= drained[at];
        }
    }

    /** Applies pauses made since the index was built, at once (the next build takes them anyway). */
    public void applyPauses(Map<String, PoolPause> pauses) {
        markPaused(pauses);
        for (int i = size - 1; i >= 0; i--) {
            recompute(i);
        }
    }

    /** Whether a job of some operation could start in {@code free} (tag filters aside). */
    public boolean mayStartIn(Resources free) {
        return somethingMayFit(free.toArray());
    }

    /** The operations with jobs left to start, by id (a paused pool's excepted). */
    public Set<String> schedulableOperations() {
        Set<String> out = new HashSet<>();
        for (int at = 0; at < size; at++) {
            if (operations[at] != null && isSchedulable(at)) {
                out.add(ids[at]);
            }
        }
        return out;
    }

    /** Whether some job of an active operation could start in {@code free}; false proves that none can. */
    boolean somethingMayFit(double[] free) {
        return shapes.mayFit(0, free);
    }

    /**
     * Builds the index of a published update.
     *
     * @param tree the tree's name
     * @param config the tree as the update saw it
     * @param elements the update's elements in tree order (parents first)
     * @param total the tree total (absolute)
     * @param operationsById the operations in the update
     * @param starvationById the starving elements
     * @param pauses the tree's paused pools by name
     */
    public static SchedulingIndex build(String tree, PoolTreeConfig config, List<ElementShares> elements, double[] total,
            Map<String, Operation> operationsById, Map<String, StarvationStatus> starvationById,
            Map<String, PoolPause> pauses) {
        return new SchedulingIndex(tree, config, elements, total, operationsById, starvationById, pauses);
    }

    /** A job of an indexed operation started: usage grows on its path. */
    public void jobStarted(Job job) {
        int at = indexOf(job.operationId());
        if (at >= 0) {
            addUsage(at, job.resources().toArray(), 1);
        }
    }

    /** A job of an indexed operation ended: usage shrinks on its path; its index may pend again. */
    public void jobEnded(Job job) {
        int at = indexOf(job.operationId());
        if (at >= 0) {
            addUsage(at, job.resources().toArray(), -1);
        }
    }

    private boolean overLimits() {
        for (int e = 1; e < size; e++) {
            for (int r = 0; r < N; r++) {
                if (usage[e * N + r] > limits[e * N + r] + 1e-9) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void copy(ShareVector share, double[] into, int at) {
        for (int r = 0; r < N; r++) {
            into[at * N + r] = share.get(r);
        }
    }

    private void setLimits(int at, double[] values) {
        for (int r = 0; r < N; r++) {
            limits[at * N + r] = Math.min(limits[at * N + r], values[r]);
        }
    }

    public String tree() {
        return tree;
    }

    /** The element's position, or -1. */
    public int indexOf(String id) {
        Integer at = index.get(id);
        return at == null ? -1 : at;
    }

    public int size() {
        return size;
    }

    /** The element's dominant fair share (largest component), 0 for an unknown id. */
    public double dominantFairShare(String id) {
        int at = indexOf(id);
        if (at < 0) {
            return 0;
        }
        double max = 0;
        for (int r = 0; r < N; r++) {
            max = Math.max(max, fairShare[at * N + r]);
        }
        return max;
    }

    public StarvationStatus starvation(String id) {
        int at = indexOf(id);
        return at < 0 ? StarvationStatus.NON_STARVING : starvation[at];
    }

    /** Jobs of operation {@code at} not started yet and not planned in the current decision. */
    int remainingPending(int at) {
        return operations[at].pendingJobCount() - plans.count(at);
    }

    boolean isActive(int at) {
        return !deactivated[at] && isSchedulable(at);
    }

    /** Has jobs left to plan (asked first: it needs no lookup by tree) and runs in the tree; never a gang (planned whole). */
    boolean isSchedulable(int at) {
        return !gang[at] && !paused[at] && remainingPending(at) > 0 && operations[at].runsIn(tree);
    }

    /** Whether the tags of a node satisfy the tag filters of an element and of every pool above it. */
    boolean tagsAllow(int at, Set<String> tags) {
        return tagFilters.allow(at, parent, tags);
    }

    /** The tree's gang operations, in tree order. */
    public List<Operation> gangs() {
        List<Operation> out = new ArrayList<>(gangOperations.length);
        for (int at : gangOperations) {
            out.add(operations[at]);
        }
        return out;
    }

    /** Whether the tree has gang operations (else no plan is ever looked for). */
    public boolean hasGangs() {
        return gangOperations.length > 0;
    }

    /** Local satisfaction of an element with its current usage. */
    double localSatisfaction(int at) {
        for (int r = 0; r < N; r++) {
            scratchFs[r] = fairShare[at * N + r];
            scratchUsage[r] = ShareVector.ratio(usage[at * N + r], total[r]);
            scratchDemand[r] = demandShare[at * N + r];
        }
        return Satisfaction.local(scratchFs, scratchUsage, scratchDemand);
    }

    /** The best active child's satisfaction: the lowest, or in FIFO order the first. */
    private double poolSatisfaction(int at) {
        ChildTree tree = trees[at];
        if (tree == null) {
            return INACTIVE;
        }
        if (fifoScheduling[at]) {
            int first = tree.leftmostActive();
            return first < 0 ? INACTIVE : tree.satisfactionAt(first);
        }
        return tree.minSatisfaction();
    }

    /**
     * Recomputes the cached values (satisfaction, active count, smallest job) of {@code at} and of
     * its ancestors as far as they change. A pool's values depend on its children's only, so an
     * unchanged pool ends the walk.
     */
    void refresh(int at) {
        boolean satisfactionChanged = recomputeSatisfaction(at);
        boolean shapeChanged = shapes.recompute(this, at);
        int child = at;
        for (int p = parent[at]; p >= 0 && (satisfactionChanged || shapeChanged); p = parent[p]) {
            ChildTree tree = trees[p];
            if (satisfactionChanged) {
                tree.setSatisfaction(position[child], satisfaction[child]);
                satisfactionChanged = recomputeSatisfaction(p);
            }
            if (shapeChanged) {
                tree.setShape(position[child], shapes.activeCount[child], shapes.minJob, child * N);
                shapeChanged = shapes.recompute(this, p);
            }
            child = p;
        }
    }

    /** Both cached values of one element, from scratch (at build, children first). */
    private void recompute(int at) {
        ChildTree tree = trees[at];
        if (tree != null) {
            int[] kids = children[at];
            for (int c = 0; c < kids.length; c++) {
                tree.setSatisfaction(c, satisfaction[kids[c]]);
                tree.setShape(c, shapes.activeCount[kids[c]], shapes.minJob, kids[c] * N);
            }
        }
        recomputeSatisfaction(at);
        shapes.recompute(this, at);
    }

    /** The cached values of a pool's children, for {@link SubtreeShapes}; {@code null} without children. */
    ChildTree childTree(int pool) {
        return trees[pool];
    }

    /** Recomputes the cached satisfaction of one element; whether it changed. */
    private boolean recomputeSatisfaction(int at) {
        double old = satisfaction[at];
        if (operations[at] != null) {
            satisfaction[at] = isActive(at) ? localSatisfaction(at) : INACTIVE;
        } else {
            satisfaction[at] = deactivated[at] ? INACTIVE : poolSatisfaction(at);
        }
        return Double.doubleToRawLongBits(old) != Double.doubleToRawLongBits(satisfaction[at]);
    }

    /** The child of a pool to descend into, or -1 if nothing below is active. */
    int bestChild(int pool) {
        ChildTree tree = trees[pool];
        if (tree == null) {
            return -1;
        }
        int at = fifoScheduling[pool] ? tree.leftmostActive() : tree.leftmostBest();
        return at < 0 ? -1 : children[pool][at];
    }

    /** Whether the smallest job left below element {@code at} fits in {@code free}. */
    boolean mayFit(int at, double[] free) {
        return shapes.mayFit(at, free);
    }

    /** How many operations below element {@code at} are active. */
    int activeCount(int at) {
        return shapes.activeCount[at];
    }

    /** Adds ({@code sign} 1) or removes (-1) a job's resources along the operation's path. */
    void addUsage(int operation, double[] job, int sign) {
        addUsageOnly(operation, job, sign);
        refresh(operation);
    }

    /** Changes usage along the path without refreshing satisfactions; the caller refreshes. */
    void addUsageOnly(int operation, double[] job, int sign) {
        for (int a = operation; a >= 0; a = parent[a]) {
            for (int r = 0; r < N; r++) {
                usage[a * N + r] += sign * job[r];
            }
        }
    }

    void fairShare(int at, double[] out) {
        System.arraycopy(fairShare, at * N, out, 0, N);
    }

    void demandShare(int at, double[] out) {
        System.arraycopy(demandShare, at * N, out, 0, N);
    }

    /** Room left under the limits of the element and its ancestors, into {@code room} (min-ed in). */
    void limitRoom(int operation, double[] room) {
        for (int a = operation; a >= 0; a = parent[a]) {
            for (int r = 0; r < N; r++) {
                double left = limits[a * N + r] - usage[a * N + r];
                if (left < room[r]) {
                    room[r] = left;
                }
            }
        }
    }
}
