package io.grove.core.cluster;

import io.grove.core.fairshare.FairShareResult;
import io.grove.core.operation.Operation;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.schedule.SchedulingIndex;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * The third step of a fair-share update, on the writer's thread: the tree's starvation, integral
 * state and scheduling index from the computed result, and the operations whose dependencies can
 * never hold aborted with why. An abort for a dependency is not journaled: it follows from the
 * journaled end of the operation depended on, so a revived scheduler makes it again at its first
 * update.
 */
final class UpdatePublish {

    private UpdatePublish() {
    }

    static FairShareResult publish(Cluster cluster, Map<String, TreeState> trees, ComputedUpdate computed) {
        PreparedUpdate prepared = computed.prepared();
        prepared.neverStart().forEach((id, why) -> {
            Operation operation = cluster.registry().operation(id);
            if (operation != null && !operation.state().isFinished()) {
                cluster.abort(id, prepared.now(), why);
            }
        });
        TreeState tree = trees.get(prepared.tree());
        if (tree == null) {
            return computed.result();
        }
        PoolTreeConfig config = prepared.input().tree();
        Map<String, StarvationStatus> starving = tree.starvation.update(computed.elements(), config,
                prepared.pendingJobs(), UpdateInputs.operationPreemption(prepared.operations().values()), prepared.now());
        tree.integralState = computed.result().integralState();
        tree.historicUsage = computed.result().historicUsage();
        tree.starving = starving;
        tree.lastUpdate = prepared.now();
        tree.result = computed.result();
        tree.elements = Collections.unmodifiableList(computed.elements());
        Set<String> before = tree.index == null ? Set.of() : tree.index.schedulableOperations();
        tree.index = SchedulingIndex.build(prepared.tree(), config, computed.elements(), prepared.total(),
                prepared.operations(), starving, tree.pauses);
        NewWork.published(tree, before, cluster.registry());
        tree.gangs.dirty = true;
        cluster.gangs().planIfChanged(prepared.tree(), prepared.now(), true);
        return computed.result();
    }
}
