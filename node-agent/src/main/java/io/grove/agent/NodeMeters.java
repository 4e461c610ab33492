package io.grove.agent;

import io.grove.agent.gpu.Gpu;
import io.grove.agent.gpu.GpuSample;
import io.grove.agent.job.JobContainment;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.WorkDir;
import io.grove.agent.node.NodeLedger;
import io.grove.protocol.JobCpu;
import io.grove.protocol.NodeHeartbeat;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the agent measures of its node and jobs and what it tells the scheduler of them: the disk
 * new jobs may order, why the node cannot start jobs, jobs' CPU as counted, jobs over their disk,
 * GPUs that {@code nvidia-smi} reports failed. Used on the agent's thread; the jobs are the agent's.
 */
final class NodeMeters {

    /** How often a running job's CPU goes to the scheduler. */
    static final long CPU_REPORT_MS = 10_000;
    /** How long a job may wait for its sandbox's preparation before the node says the broker is stuck. */
    static final long BROKER_STUCK_MS = 60_000;

    private final JobContainment containment;
    private final NodeLedger ledger;
    private final AgentListener listener;
    private final InstantSource clock;
    private final WorkDir workDir;
    private final NodeDisk disk;
    /** The last CPU counts of jobs that ended, for the next heartbeat. */
    private final List<JobCpu> endedCpu = new ArrayList<>();

    NodeMeters(JobContainment containment, NodeLedger ledger, AgentListener listener, InstantSource clock,
            WorkDir workDir, NodeDisk disk) {
        this.containment = containment;
        this.ledger = ledger;
        this.listener = listener;
        this.clock = clock;
        this.workDir = workDir;
        this.disk = disk;
    }

    /** The heartbeat going out, with the node's condition and the jobs' CPU due. */
    NodeHeartbeat told(NodeHeartbeat heartbeat, Collection<AgentJob> jobs) {
        long usable = disk.usable();
        return heartbeat.withCondition(usable < 0 ? null : disk.forJobs(usable, promisedDisk(jobs)),
                unschedulable(usable, jobs), containment.gpus().outOfService()).withJobCpu(cpuToReport(jobs));
    }

    /**
     * A job's processes ended (its cgroup and devices not yet given back): its last CPU count goes
     * with the next heartbeat, and its GPU-seconds to the metrics.
     */
    void ended(AgentJob job) {
        String jobId = job.spec.jobId();
        job.countCpu(containment.cpuUsage(jobId), null);
        if (job.cpu != null) {
            endedCpu.add(job.cpu);
        }
        int devices = containment.gpus().of(jobId).size();
        if (devices > 0 && job.startedAtMs > 0) {
            listener.gpuSeconds(jobId, devices * (clock.millis() - job.startedAtMs) / 1000.0);
        }
    }

    /** Jobs' CPU for the heartbeat going out: each running job's every {@value #CPU_REPORT_MS} ms, ended jobs' last. */
    private List<JobCpu> cpuToReport(Collection<AgentJob> jobs) {
        long now = clock.millis();
        List<JobCpu> report = new ArrayList<>(endedCpu);
        endedCpu.clear();
        for (AgentJob job : jobs) {
            if (job.cpu != null && (job.cpuReportedAtMs == Long.MIN_VALUE || now - job.cpuReportedAtMs >= CPU_REPORT_MS)) {
                report.add(job.cpu);
                job.cpuReportedAtMs = now;
            }
        }
        return report;
    }

    /** Disk that running jobs ordered and do not use yet. */
    private static long promisedDisk(Collection<AgentJob> jobs) {
        long promised = 0;
        for (AgentJob job : jobs) {
            promised += Math.max(0, job.spec.diskSpace() - job.diskUsed);
        }
        return promised;
    }

    /** Why this node cannot start jobs now, or {@code null}: its disk is full, its cgroups are gone, or its broker is stuck. */
    String unschedulable(long usable, Collection<AgentJob> jobs) {
        String full = disk.full(usable);
        if (full != null) {
            return full;
        }
        String cgroups = containment.cgroupsGone();
        if (cgroups != null) {
            return cgroups;
        }
        long now = clock.millis();
        for (AgentJob job : jobs) {
            if (job.state == AgentJob.State.PREPARING && now - job.acceptedAtMs > BROKER_STUCK_MS) {
                return "broker stuck: job " + job.spec.jobId() + " has waited " + (now - job.acceptedAtMs) / 1000
                        + " s for its sandbox to be prepared";
            }
        }
        return null;
    }

    /**
     * Takes a sample of every job's process tree ({@code groups}, by process group): its CPU as
     * counted and its resident memory.
     *
     * @return the running jobs whose resident memory is above their memory, with why; only without
     *     cgroups (with them, the kernel holds jobs to their memory and the sampler only measures)
     */
    Map<String, String> sampled(Map<Long, ProcTable.GroupUsage> groups, Collection<AgentJob> jobs, long nowMs) {
        Map<String, String> over = new LinkedHashMap<>();
        for (AgentJob job : jobs) {
            ProcTable.GroupUsage usage = job.handle == null ? null : groups.get(job.handle.pid());
            if (job.state == AgentJob.State.RUNNING) {
                job.countCpu(containment.cpuUsage(job.spec.jobId()), usage);
            }
            if (usage == null) {
                continue;
            }
            job.measure(usage, nowMs);
            long limit = memoryLimit(job);
            if (!containment.kernelLimitsMemory() && limit > 0 && usage.residentBytes() > limit
                    && job.state == AgentJob.State.RUNNING) {
                over.put(job.spec.jobId(), "memory limit exceeded: the job's " + usage.processes() + " process(es) hold "
                        + mib(usage.residentBytes()) + " resident, above its memory of " + mib(limit));
            }
        }
        return over;
    }

    /** The memory a job is held to: its order, else the node's default for jobs that ordered none. */
    long memoryLimit(AgentJob job) {
        return containment.policy().memoryOf(job.spec);
    }

    /** What to measure of each running job's disk: its sandbox (with its private /tmp) and its logs. */
    List<NodeDisk.Check> diskChecks(Collection<AgentJob> jobs) {
        List<NodeDisk.Check> checks = new ArrayList<>();
        for (AgentJob job : jobs) {
            if (job.state == AgentJob.State.RUNNING) {
                String id = job.spec.jobId();
                checks.add(new NodeDisk.Check(id, List.of(workDir.sandbox(id), workDir.jobDir(id).resolve("stdout"),
                        workDir.jobDir(id).resolve("stderr"))));
            }
        }
        return checks;
    }

    /**
     * Takes jobs' disk as measured and makes the agent's reserve again when the disk has room.
     *
     * @return the running jobs above their disk (their order, else the node's default), with why
     */
    Map<String, String> overDisk(Map<String, Long> used, Map<String, AgentJob> jobs) {
        Map<String, String> over = new LinkedHashMap<>();
        for (Map.Entry<String, Long> entry : used.entrySet()) {
            AgentJob job = jobs.get(entry.getKey());
            if (job == null) {
                continue;
            }
            job.diskUsed = entry.getValue();
            long limit = containment.policy().diskOf(job.spec);
            if (job.state == AgentJob.State.RUNNING && job.diskUsed > limit) {
                over.put(job.spec.jobId(), "disk limit exceeded: its sandbox, /tmp and logs hold " + mib(job.diskUsed)
                        + ", above its " + (job.spec.diskSpace() > 0 ? "disk_space" : job.spec.defaultDiskSpace() > 0
                                ? "tree's default disk" : "node's default disk") + " of "
                        + mib(limit));
            }
        }
        long usable = disk.usable();
        if (usable >= 0) {
            disk.reserve().restore(usable);
        }
        return over;
    }

    /**
     * The node's GPUs as {@code nvidia-smi} saw them: a GPU it reports failed is taken out of
     * service; each running job's GPUs' utilization and memory go to the metrics.
     */
    void gpusSampled(Map<Integer, GpuSample> samples, Collection<AgentJob> jobs) {
        for (Gpu gpu : containment.gpus().all()) {
            GpuSample sample = samples.get(gpu.index());
            if (sample != null && sample.failure() != null
                    && containment.gpus().outOfService().stream().noneMatch(o -> o.startsWith(gpu + ":"))) {
                containment.gpus().takeOut(gpu, sample.failure());
                ledger.gpusInService(containment.gpus().inService());
            }
        }
        for (AgentJob job : jobs) {
            List<GpuSample> own = containment.gpus().of(job.spec.jobId()).stream().map(g -> samples.get(g.index()))
                    .filter(s -> s != null && s.failure() == null).toList();
            if (!own.isEmpty()) {
                listener.jobGpus(job.spec.jobId(), own.stream().mapToDouble(GpuSample::utilization).average().orElse(0),
                        own.stream().mapToLong(GpuSample::memoryUsedBytes).sum());
            }
        }
    }

    static String mib(double bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
    }
}
