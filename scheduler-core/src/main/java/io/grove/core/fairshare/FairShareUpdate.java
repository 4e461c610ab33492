package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One fair-share update of one pool tree (see docs/fair-share.md#the-steps): a pure function from
 * {@link FairShareInput} to {@link FairShareResult}.
 *
 * <ol>
 *   <li>build the elements; infer strong guarantees; collect burst and relaxed pools;</li>
 *   <li>cumulative attributes bottom-up (shares, flow and burst ratios, FIFO order);</li>
 *   <li>consume and refill integral volumes, redistribute overflow;</li>
 *   <li>validate and adjust guarantees;</li>
 *   <li>burst, then relaxed integral shares;</li>
 *   <li>build the fair-share functions bottom-up and distribute from the root;</li>
 *   <li>promised guarantee fair shares; the root's fair share is the sum of its children's.</li>
 * </ol>
 */
public final class FairShareUpdate {

    private FairShareUpdate() {
    }

    /**
     * Runs one update.
     *
     * @throws IllegalArgumentException if an operation names a pool that is not in the tree
     */
    public static FairShareResult run(FairShareInput input) {
        return run(input, UpdatePhase.PhaseListener.NONE);
    }

    /**
     * Runs one update, telling {@code listener} as each of its phases is done (so that a
     * benchmark can time them; the update keeps no clock).
     *
     * @throws IllegalArgumentException if an operation names a pool that is not in the tree
     */
    public static FairShareResult run(FairShareInput input, UpdatePhase.PhaseListener listener) {
        return run(input, new FairShareWorkspace(), listener);
    }

    /**
     * Runs one update in {@code workspace}'s arrays, which the update after it may use again: the
     * same result as without one, less to allocate.
     *
     * @throws IllegalArgumentException if an operation names a pool that is not in the tree
     * @throws IllegalStateException if another update is using the workspace
     */
    public static FairShareResult run(FairShareInput input, FairShareWorkspace workspace) {
        return run(input, workspace, UpdatePhase.PhaseListener.NONE);
    }

    /** {@link #run(FairShareInput, FairShareWorkspace)}, telling {@code listener} as each phase is done. */
    public static FairShareResult run(FairShareInput input, FairShareWorkspace workspace,
            UpdatePhase.PhaseListener listener) {
        workspace.acquire();
        try {
            return update(input, new UpdateContext(input, workspace), listener);
        } finally {
            workspace.release();
        }
    }

    private static FairShareResult update(FairShareInput input, UpdateContext context, UpdatePhase.PhaseListener listener) {
        Map<String, CompositeElement> pools = new HashMap<>();
        CompositeElement root = new CompositeElement(null, 0);
        pools.put(PoolTreeConfig.ROOT, root);
        for (PoolConfig pool : input.tree().pools()) {
            attach(root, pool, pools);
        }
        attachOperations(input, pools, context);
        context.elementCount = pools.size() + input.operations().size();
        listener.done(UpdatePhase.ELEMENTS);
        checkNestedPromisedPools(root, false, context);

        StrongGuarantees.infer(root, context);
        collectIntegralPools(root, context);
        for (CompositeElement pool : context.burstPools) {
            restoreState(pool, input.integralState());
        }
        for (CompositeElement pool : context.relaxedPools) {
            restoreState(pool, input.integralState());
        }
        root.updateCumulativeAttributes(context);
        listener.done(UpdatePhase.ATTRIBUTES);
        IntegralVolumes.consumeAndRefill(root, context);
        StrongGuarantees.validateAndAdjust(root, context);
        if (input.tree().inferWeightFromGuaranteesShareMultiplier() != null) {
            GuaranteeWeights.infer(root, input.tree().inferWeightFromGuaranteesShareMultiplier());
        }
        context.useDims(Dims.of(context.total, root));
        listener.done(UpdatePhase.GUARANTEES);

        IntegralShares.updateBurstPools(context);
        IntegralShares.updateRelaxedPools(root, context);
        listener.done(UpdatePhase.INTEGRAL_SHARES);

        root.prepareRootFunctions(context);
        listener.done(UpdatePhase.FUNCTIONS);
        root.computeAndSetFairShare(root.fairShareAtFullSuggestion(), Element.FairShareType.REGULAR);
        root.computePromisedGuaranteeFairShare();
        DetailedFairShare rootShare = rootFairShare(root);
        listener.done(UpdatePhase.DISTRIBUTION);

        FairShareResult result = ResultBuilder.build(root, rootShare, context);
        listener.done(UpdatePhase.RESULT);
        return result;
    }

    private static void attach(CompositeElement parent, PoolConfig config, Map<String, CompositeElement> pools) {
        CompositeElement pool = new CompositeElement(config, pools.size());
        pool.parent = parent;
        parent.children.add(pool);
        parent.childPools.add(pool);
        if (pools.putIfAbsent(config.name(), pool) != null) {
            throw new IllegalArgumentException("duplicate pool name '" + config.name() + "'");
        }
        for (PoolConfig child : config.children()) {
            attach(pool, child, pools);
        }
    }

    /**
     * How far ahead the walks over the operations load the one they will need next: each
     * operation is a cache miss (the input's objects, the elements in another order), and a load
     * issued this many steps early overlaps its miss with the work on the ones before.
     */
    private static final int AHEAD = 12;

    /**
     * Adds the operations to their pools, in input order within each pool. The elements are
     * created pool by pool, so that the operations of one pool lie together in memory for the
     * walks that follow; the records are read in input order, the order they lie in.
     */
    private static void attachOperations(FairShareInput input, Map<String, CompositeElement> pools,
            UpdateContext context) {
        List<OperationDemand> operations = input.operations();
        int count = operations.size();
        CompositeElement[] poolOf = new CompositeElement[count];
        int[] perPool = new int[pools.size() + 1];
        // What the loads ahead read, kept in the context so that they are not optimized away.
        long ahead = 0;
        for (int i = 0; i < count; i++) {
            if (i + AHEAD < count) {
                ahead += operations.get(i + AHEAD).pool().hashCode();
            }
            OperationDemand operation = operations.get(i);
            CompositeElement pool = pools.get(operation.pool());
            if (pool == null) {
                throw new IllegalArgumentException("operation " + operation.id() + " is in pool '" + operation.pool()
                        + "', which is not in tree '" + input.tree().name() + "'");
            }
            poolOf[i] = pool;
            perPool[pool.position + 1]++;
        }
        // Each pool's list of children made as large as it will be, pool by pool in tree order,
        // so that the lists neither grow by copying nor lie scattered when the walks read them.
        CompositeElement[] byPosition = new CompositeElement[pools.size()];
        for (CompositeElement pool : pools.values()) {
            byPosition[pool.position] = pool;
        }
        for (CompositeElement pool : byPosition) {
            int attached = perPool[pool.position + 1];
            if (attached > 0) {
                pool.children.ensureCapacity(pool.children.size() + attached);
            }
        }
        for (int p = 1; p < perPool.length; p++) {
            perPool[p] += perPool[p - 1];
        }
        int[] byPool = new int[count];
        for (int i = 0; i < count; i++) {
            byPool[perPool[poolOf[i].position]++] = i;
        }
        OperationElement[] elements = new OperationElement[count];
        for (int i : byPool) {
            elements[i] = new OperationElement(i);
        }
        for (int i = 0; i < count; i++) {
            if (i + AHEAD < count) {
                ahead += elements[i + AHEAD].order;
            }
            elements[i].read(operations.get(i));
        }
        // Attached pool by pool, in input order within a pool: each pool's children and sums come
        // out as in input order, while the elements, their arrays and the pools are walked in the
        // order they lie in memory (in input order, each would be a miss).
        for (int i : byPool) {
            OperationElement element = elements[i];
            CompositeElement pool = poolOf[i];
            element.parent = pool;
            element.slot = pool.children.size() - pool.childPools.size();
            pool.children.add(element);
            pool.addOperationSums(element);
        }
        context.loadedAhead = ahead;
    }

    private static void restoreState(CompositeElement pool, Map<String, IntegralState> states) {
        IntegralState state = states.getOrDefault(pool.id, IntegralState.EMPTY);
        pool.accumulatedVolume = state.accumulatedVolume().toArray();
        pool.lastShareRatio = state.lastShareRatio();
    }

    /** Pre-order, so that a pool comes before anything below it. */
    private static void collectIntegralPools(CompositeElement pool, UpdateContext context) {
        IntegralGuaranteeType type = pool.integralType();
        if (type == IntegralGuaranteeType.BURST) {
            context.burstPools.add(pool);
        } else if (type == IntegralGuaranteeType.RELAXED) {
            context.relaxedPools.add(pool);
        }
        for (CompositeElement childPool : pool.childPools) {
            collectIntegralPools(childPool, context);
        }
    }

    private static void checkNestedPromisedPools(CompositeElement pool, boolean underPromised, UpdateContext context) {
        boolean promised = pool.shouldComputePromisedGuaranteeFairShare();
        if (promised && underPromised) {
            context.alerts.add(new Alert(AlertCode.NESTED_PROMISED_GUARANTEE_FAIR_SHARE_POOLS,
                    "Found pools with enabled promised guarantee fair share computation which are nested inside other such pools",
                    Map.of("pool", pool.id)));
        }
        for (CompositeElement childPool : pool.childPools) {
            checkNestedPromisedPools(childPool, underPromised || promised, context);
        }
    }

    /** The root's fair share is its children's sum, split by the strong guarantee they actually use. */
    private static DetailedFairShare rootFairShare(CompositeElement root) {
        double[] usedStrong = Vec.zero();
        double[] total = Vec.zero();
        for (Element child : root.children) {
            double[] fairShare = child.regularFairShare();
            double[] share = fairShare == null ? Vec.ZERO : fairShare;
            Vec.addTo(usedStrong, Vec.min(share, child.strongGuaranteeShare));
            Vec.addTo(total, share);
        }
        root.fairShare = total;
        return DetailedFairShare.split(total, usedStrong, root.proposedIntegralShare);
    }
}
