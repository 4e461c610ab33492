package io.grove.agent;

import io.grove.agent.job.JobContainment;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.WorkDir;
import io.grove.protocol.FinishedJob;
import java.io.IOException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After an agent restart, no job of the previous run keeps running: what is left in its cgroups is
 * killed, a job still running is killed with its whole process group and reported aborted, and
 * results the scheduler had not acknowledged are reported again. The job uids of agents gone with
 * their work directories are freed.
 */
final class LeftoverJobs {

    private static final Logger LOG = LoggerFactory.getLogger(LeftoverJobs.class);

    private LeftoverJobs() {
    }

    /**
     * @param tailOf the end of a job's stderr, to append to its result's message
     * @return how many jobs were killed
     */
    static int recover(WorkDir workDir, JobContainment containment, ProcTable proc, Reports reports, long nowMs,
            UnaryOperator<String> tailOf) throws IOException {
        int killed = containment.sweepCgroups();
        int leases = containment.adoptLeases();
        if (leases > 0) {
            LOG.info("after the restart: {} job uid(s) stay with jobs of the previous run until their files are removed", leases);
        }
        int orphans = containment.sweepOrphanLeases();
        if (orphans > 0) {
            LOG.info("{} job uid(s) of agents gone with their work directories freed, what their jobs left removed", orphans);
        }
        for (WorkDir.Leftover leftover : workDir.leftovers()) {
            if (leftover.result().isPresent()) {
                reports.finished(leftover.result().get());
                continue;
            }
            long started = 0;
            if (leftover.record().isPresent()) {
                WorkDir.JobRecord record = leftover.record().get();
                started = record.startedAtMs();
                // its devices may be busy until its processes are reaped: nobody gets them before its files go
                containment.gpus().adopt(leftover.jobId(), record.gpus());
                if (proc.startTime(record.pid()).orElse(-1) == record.processStartTicks()) {
                    containment.killLeftover(record.pid());
                    killed++;
                }
            }
            FinishedJob result = new FinishedJob(leftover.jobId(), FinishedJob.Outcome.ABORTED, null,
                    "the node agent restarted; the job's processes were killed" + tailOf.apply(leftover.jobId()),
                    started, nowMs);
            workDir.writeResult(result);
            reports.finished(result);
        }
        if (reports.pendingResults() > 0) {
            LOG.info("after the restart: {} job(s) of the previous run killed, {} result(s) to report", killed,
                    reports.pendingResults());
        }
        return killed;
    }
}
