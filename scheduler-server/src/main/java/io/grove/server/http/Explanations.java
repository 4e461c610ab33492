package io.grove.server.http;

import static io.grove.server.http.ApiValues.amounts;
import static io.grove.server.http.ApiValues.lower;

import io.grove.api.Explanation;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.PendingCheck;
import io.grove.core.cluster.PendingExplainer;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import java.util.ArrayList;
import java.util.List;

/** {@code GET /api/v1/operations/{id}/explain}: the core's explanation as the API's record. */
final class Explanations {

    private Explanations() {
    }

    static Explanation of(ClusterView cluster, Operation operation) {
        List<Explanation.Tree> trees = new ArrayList<>();
        for (PendingExplainer.TreeExplanation tree : PendingExplainer.explain(cluster, operation)) {
            List<Explanation.Check> checks = new ArrayList<>();
            for (PendingCheck check : tree.checks()) {
                checks.add(check(check));
            }
            trees.add(new Explanation.Tree(tree.tree(), tree.pool(), lower(tree.verdict().code()), checks));
        }
        return new Explanation(operation.id(), lower(operation.state()), trees, preemptions(operation), null);
    }

    /** How many preempted jobs an explanation lists. */
    static final int PREEMPTIONS_LISTED = 10;

    /** The operation's last preempted jobs, newest first. */
    private static List<Explanation.Preemption> preemptions(Operation operation) {
        List<Explanation.Preemption> out = new ArrayList<>();
        List<Job> finished = operation.finishedJobs();
        for (int i = finished.size() - 1; i >= 0 && out.size() < PREEMPTIONS_LISTED; i--) {
            Job job = finished.get(i);
            if (job.preemptedFor() != null) {
                out.add(new Explanation.Preemption(job.id(), job.finishTime() == null ? null : job.finishTime().toString(),
                        job.preemptedFor().reason(), job.preemptedFor().operationId(), job.preemptedFor().pool(),
                        job.message()));
            }
        }
        return out;
    }

    private static Explanation.Check check(PendingCheck check) {
        List<Explanation.Level> levels = check.levels() == null ? null : check.levels().stream()
                .map(l -> new Explanation.Level(l.id(), l.fairShare(), l.usageShare(), l.demandShare(), l.satisfaction()))
                .toList();
        return new Explanation.Check(lower(check.code()), check.blocks(), check.message(), check.pool(), check.node(), check.limit(),
                check.queuePosition(), check.job() == null ? null : amounts(check.job()),
                check.available() == null ? null : amounts(check.available()), levels,
                check.at() == null ? null : check.at().toString());
    }
}
