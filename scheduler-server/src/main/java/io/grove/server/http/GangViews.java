package io.grove.server.http;

import io.grove.api.GangView;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.GangStatus;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.schedule.GangPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A gang as the API shows it: its plan and its ranks' nodes, or why it waits; a job's rank. */
final class GangViews {

    private GangViews() {
    }

    /** The gang's view, from the first of its trees that has a plan or a reason; {@code null} for other operations. */
    static GangView of(Operation operation, ClusterView cluster) {
        if (!operation.spec().gang()) {
            return null;
        }
        String topology = operation.spec().topology().describe();
        int size = operation.spec().jobCount();
        if (operation.state().isFinished()) {
            return new GangView(size, topology, "finished", null, null, null, null, null, null);
        }
        for (String tree : operation.poolByTree().keySet()) {
            GangStatus status = cluster.gang(tree, operation.id());
            GangPlan plan = status.plan();
            if (status.restarting()) {
                return new GangView(size, topology, "restarting", null, null, null, null, null, null);
            }
            if (plan != null) {
                List<GangView.Rank> ranks = new ArrayList<>();
                Map<Integer, String> started = plan.startedJobs();
                for (GangPlan.Rank rank : plan.ranks()) {
                    ranks.add(new GangView.Rank(rank.rank(), rank.nodeId(), started.get(rank.rank())));
                }
                return new GangView(size, topology, plan.complete() ? "running" : "starting", plan.domain(),
                        Views.time(plan.planned()), plan.masterNode(), plan.masterPort(), ranks, null);
            }
            if (status.waiting() != null) {
                return new GangView(size, topology, "waiting", null, null, null, null, null, status.waiting().why(),
                        status.starvingSince() == null ? null : Views.time(status.starvingSince()),
                        Views.reservation(status.reservation()));
            }
        }
        return new GangView(size, topology, operation.runningJobCount() > 0 ? "running" : "waiting", null, null, null,
                null, null, null);
    }

    /** A gang's job's rank: its job number across the spec's tasks; {@code null} for other operations. */
    static Integer rank(Operation operation, Job job) {
        return operation == null || !operation.spec().gang() ? null
                : operation.spec().jobNumber(job.task().name(), job.index());
    }
}
