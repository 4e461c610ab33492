package io.grove.server.http;

import io.grove.accounting.RunningJob;
import io.grove.accounting.UsageQuery;
import io.grove.core.accounting.JobRecord;
import io.grove.core.cluster.ClusterView;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationsView;
import java.util.ArrayList;
import java.util.List;

/** The running jobs a usage report counts up to now, read on the scheduler's thread. */
final class RunningJobs {

    private RunningJobs() {
    }

    /** The running jobs of the report's tree and (for users and operations) of its user. */
    static List<RunningJob> of(ClusterView cluster, UsageQuery query) {
        OperationsView registry = cluster.registry();
        List<RunningJob> running = new ArrayList<>();
        for (Operation operation : registry.operations()) {
            if (operation.runningJobCount() == 0
                    || !query.fromHours() && query.user() != null && !query.user().equals(operation.user())) {
                continue;
            }
            for (Job job : operation.runningJobsView()) {
                if (job.startTime() == null || query.tree() != null && !query.tree().equals(job.tree())) {
                    continue;
                }
                String pool = operation.poolByTree().get(job.tree());
                List<String> toRoot = registry.pathsToRoot(operation).get(job.tree());
                running.add(new RunningJob(job.id(), job.operationId(), operation.user(), job.tree(), pool,
                        pool == null || toRoot == null ? null : JobRecord.joinedPath(toRoot), job.resources(),
                        job.startTime().toEpochMilli()));
            }
        }
        return running;
    }
}
