package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobCpu;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.JobStatus;
import io.grove.core.schedule.Heartbeat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a heartbeat reports, applied to the cluster: the node's tags and limits (registering a new
 * node), jobs that ended on it, jobs the scheduler placed there that the node no longer has, and
 * jobs a full list names that the scheduler does not place there (a node back after it was declared
 * lost still runs the jobs that were ended then): the node is told to kill those until it reports
 * them ended, in deltas too.
 */
final class NodeReports {

    private NodeReports() {
    }

    /** @return the jobs that ended */
    static List<Job> apply(Cluster cluster, Map<String, Node> nodes, Heartbeat heartbeat, Instant now) {
        Node node = nodes.get(heartbeat.nodeId());
        boolean retag = node == null || node.state() == Node.State.OFFLINE || !node.tags().equals(heartbeat.tags());
        if (node == null) {
            node = new Node(heartbeat.nodeId(), heartbeat.tags(), heartbeat.resourceLimits(), now);
            nodes.put(node.id(), node);
            cluster.drains().known(node);
        }
        node.heard(heartbeat.tags(), heartbeat.resourceLimits(), heartbeat.condition(), now);
        node.topology(heartbeat.topology());
        node.address(heartbeat.address());
        if (retag) {
            cluster.assignTree(node);
        }
        List<Job> ended = new ArrayList<>();
        for (Heartbeat.RunningJob running : heartbeat.runningJobs()) {
            if (!running.devices().isEmpty()) {
                Job job = cluster.registry().runningJob(running.jobId());
                if (job != null && job.nodeId().equals(node.id())) {
                    job.devices(running.devices());
                }
            }
        }
        for (JobCpu cpu : heartbeat.jobCpu()) {
            // before the ends below: a job's last count comes with its end
            Job job = cluster.registry().runningJob(cpu.jobId());
            if (job != null && job.nodeId().equals(node.id())) {
                job.cpu(cpu);
            }
        }
        for (JobStatus status : heartbeat.jobStatus()) {
            Job job = cluster.registry().runningJob(status.jobId());
            if (job != null && job.nodeId().equals(node.id())) {
                job.status(status);
                if (status.checkpointAgeMillis() >= 0) {
                    job.checkpointed(now.minusMillis(status.checkpointAgeMillis()));
                }
            }
        }
        for (Heartbeat.FinishedJob finished : heartbeat.finishedJobs()) {
            Job job = cluster.registry().runningJob(finished.jobId());
            if (job == null || !job.nodeId().equals(node.id())) {
                continue;
            }
            ended.add(job);
            job.exitCode(finished.exitCode());
            switch (finished.outcome()) {
                case COMPLETED -> cluster.endJob(job, JobState.COMPLETED, now, null, null);
                case FAILED -> cluster.endJob(job, JobState.FAILED, now, JobEndReason.FAILED, failureText(finished));
                case ABORTED -> cluster.endJob(job, JobState.ABORTED, now, JobEndReason.ABORTED_BY_NODE,
                        finished.error() == null ? "aborted on node " + node.id() : finished.error());
            }
        }
        if (heartbeat.delta()) {
            // only what started is listed: the node's full list (at handshake and on resync) finds lost
            // jobs; a job the scheduler ended is told to the node until the node reports it ended
            for (Heartbeat.FinishedJob finished : heartbeat.finishedJobs()) {
                node.forgetEnded(finished.jobId());
            }
            return ended;
        }
        // The common case: every job placed on the node is reported running; then nothing was lost.
        int placedAndReported = 0;
        for (Heartbeat.RunningJob running : heartbeat.runningJobs()) {
            if (node.hasJob(running.jobId())) {
                placedAndReported++;
            }
        }
        if (placedAndReported == node.jobs().size() && placedAndReported == heartbeat.runningJobs().size()
                && !node.hasEndedByScheduler()) {
            return ended;
        }
        Set<String> reported = new HashSet<>();
        for (Heartbeat.RunningJob running : heartbeat.runningJobs()) {
            reported.add(running.jobId());
            if (!node.hasJob(running.jobId()) && node.whyEnded(running.jobId()) == null) {
                // a job the scheduler ended while the node was away (lost, then back with its full
                // list): told to stop until the node reports it ended, so deltas carry it too
                node.unknownRunning(running.jobId(), "the scheduler knows no running job " + running.jobId()
                        + " on node " + node.id());
            }
        }
        for (Job job : new ArrayList<>(node.jobs())) {
            if (!reported.contains(job.id())) {
                ended.add(job);
                cluster.endJob(job, JobState.ABORTED, now, JobEndReason.ABORTED_BY_NODE,
                        "node " + node.id() + " no longer reports the job");
            }
        }
        node.forgetEndedExcept(reported);
        return ended;
    }

    static String failureText(Heartbeat.FinishedJob finished) {
        String exit = finished.exitCode() == null ? "" : "exit code " + finished.exitCode();
        if (finished.error() == null || finished.error().isEmpty()) {
            return exit.isEmpty() ? "failed" : exit;
        }
        return exit.isEmpty() ? finished.error() : exit + ": " + finished.error();
    }

    /** See {@link Cluster#checkNodes}. */
    static List<Job> checkLiveness(Cluster cluster, Map<String, Node> nodes, TopologyCounts topologies, Instant now) {
        List<Job> lost = new ArrayList<>();
        ClusterSettings settings = cluster.settings();
        for (Node node : new ArrayList<>(nodes.values())) {
            Duration silent = Duration.between(node.lastHeartbeat(), now);
            if (silent.compareTo(settings.nodeRegistrationTimeout()) >= 0) {
                for (Job job : new ArrayList<>(node.jobs())) {
                    lost.add(job);
                    cluster.endJob(job, JobState.ABORTED, now, JobEndReason.NODE_OFFLINE,
                            "node " + node.id() + " was silent for " + silent.toSeconds() + " s");
                }
                nodes.remove(node.id());
                topologies.forget(node.id());
            } else if (silent.compareTo(settings.nodeHeartbeatTimeout()) >= 0) {
                node.markOffline();
                topologies.counted(node);
            }
        }
        return lost;
    }
}
