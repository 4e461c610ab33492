package io.grove.agent;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerEvent;
import io.grove.agent.broker.ResourceBroker;
import io.grove.agent.gpu.Gpu;
import io.grove.agent.gpu.GpuCheck;
import io.grove.agent.gpu.GpuSample;
import io.grove.agent.image.NodeImages;
import io.grove.agent.job.DiskReserve;
import io.grove.agent.job.JobContainment;
import io.grove.agent.job.JobRunner;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.WorkDir;
import io.grove.agent.node.NodeLedger;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.NodeHeartbeat;
import io.grove.protocol.RunningJob;
import java.io.IOException;
import java.nio.file.Files;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's state, owned by one thread: the jobs it runs, their results until the scheduler has
 * acknowledged them, its Resource Broker and the ledger between the two. The daemon calls it when
 * a heartbeat is due, when a reply arrives, when a process exits and when memory is sampled; it
 * answers with messages and asks for timers.
 */
public final class Agent {

    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);

    /** The broker client name of the agent's own node-local work. */
    public static final String SELF = "agent";
    static final int STDERR_TAIL_BYTES = 4096;

    /** Runs a task on the agent's thread after a delay. */
    public interface Timers {
        void after(long delayMs, Runnable task);
    }

    private final String nodeId;
    private final Resources node;
    private final WorkDir workDir;
    private final JobCheckpoints checkpoints;
    private final ProcTable proc;
    private final ResourceBroker broker;
    private final NodeLedger ledger;
    private final InstantSource clock;
    private final Timers timers;
    private final Runnable heartbeatSoon;
    private final BiConsumer<String, BrokerEvent> brokerClients;
    private final AgentListener listener;
    private final JobContainment containment;
    private final NodeDisk disk;
    private final GpuCheck gpuCheck;
    private final NodeMeters meters;

    private final ImageJobs images;

    private final Map<String, AgentJob> jobs = new LinkedHashMap<>();
    private final Reports reports = new Reports();
    private final NodeTasks nodeTasks;
    private final JobStarts starts;

    public Agent(AgentParts parts) {
        this.nodeId = parts.nodeId();
        this.node = parts.node();
        this.workDir = parts.workDir();
        this.checkpoints = new JobCheckpoints(workDir);
        this.proc = parts.proc();
        this.clock = parts.clock();
        this.broker = new ResourceBroker(parts.brokerConfig().withNodeTasks(), clock.millis());
        this.ledger = new NodeLedger(node, parts.brokerReserve());
        this.timers = parts.timers();
        this.heartbeatSoon = parts.heartbeatSoon();
        this.brokerClients = parts.brokerClients();
        this.listener = parts.listener();
        this.nodeTasks = new NodeTasks(workDir, clock, parts.logRetentionMs(),
                request -> dispatch(broker.submit(clock.millis(), SELF, request)), this::prepared,
                this::cleanedUp);
        this.containment = new JobContainment(nodeId, workDir, parts.runner(), parts.jobUsers(), parts.cgroups(),
                parts.policy(), parts.gpus());
        this.disk = new NodeDisk(workDir.root(), new DiskReserve(workDir.root(), parts.policy().diskReserveBytes()));
        this.gpuCheck = parts.gpuCheck();
        this.meters = new NodeMeters(containment, ledger, listener, clock, workDir, disk);
        ledger.gpusInService(parts.gpus().inService());
        this.images = new ImageJobs(parts.images(), timers, clock, nodeTasks,
                taskId -> dispatch(broker.finish(clock.millis(), SELF, taskId)));
        this.starts = new JobStarts(jobs, reports, ledger, containment, images, nodeTasks, timers, gpuCheck, disk,
                workDir, proc, listener, clock, new JobStarts.Ends() {
                    @Override
                    public void finished(FinishedJob result, AgentJob job) {
                        Agent.this.finished(result, job);
                    }

                    @Override
                    public void exited(String jobId, Integer code) {
                        Agent.this.exited(jobId, code);
                    }

                    @Override
                    public void diskFull() {
                        stopJobsOverDiskNow();
                    }
                });
        syncBroker();
    }

    // ---------------------------------------------------------------- restart

    /**
     * After a restart: no job of a previous run keeps running. A job still running is killed with
     * its whole process group and reported aborted; results not yet acknowledged are reported again.
     *
     * @return how many jobs were killed
     */
    public int recover() throws IOException {
        return LeftoverJobs.recover(workDir, containment, proc, reports, clock.millis(), this::tailOf);
    }

    // ---------------------------------------------------------------- heartbeats

    /** The jobs to name in a handshake: none survive a restart, so none. */
    public List<RunningJob> runningJobs() {
        List<RunningJob> running = new ArrayList<>();
        for (AgentJob job : jobs.values()) {
            running.add(new RunningJob(job.spec.jobId(), job.spec.operationId(), job.usage,
                    containment.gpus().of(job.spec.jobId()).stream().map(Gpu::uuid).toList()));
        }
        return running;
    }

    /** The limits to offer in a handshake (no heartbeat in flight). */
    public Resources offered() {
        return ledger.offered();
    }

    /**
     * The results to carry in a handshake: jobs that ended while the scheduler was unreachable,
     * and again those acknowledged lately (a scheduler killed before their ends were durable comes
     * back with them running). The welcome acknowledges them ({@link #welcomed}), so the scheduler
     * learns how they ended before it decides that jobs missing from the running list were lost.
     */
    public List<FinishedJob> handshakeResults() {
        return reports.reportHandshakeResults(clock.millis());
    }

    /** The scheduler welcomed the node: the results of the handshake are acknowledged. */
    public void welcomed() {
        welcomed(1);
    }

    /**
     * The scheduler welcomed the node speaking {@code version}: the results of the handshake are
     * acknowledged, and from version 2 on heartbeats list only the jobs started since the previous
     * acknowledged one (the handshake carried the full list).
     */
    public void welcomed(int version) {
        acknowledge(false);
        reports.welcomed(version);
        checkpoints.tellAgain(jobs.values());
    }

    /** A heartbeat is going out: running jobs, results not yet acknowledged, the limits offered. */
    public NodeHeartbeat heartbeat() {
        Resources limits = ledger.heartbeatSent();
        syncBroker();
        Resources usage = Resources.ZERO;
        for (AgentJob job : jobs.values()) {
            usage = usage.plus(job.usage);
        }
        List<FinishedJob> finishedJobs = reports.reportResults();
        List<RunningJob> started = reports.reportStarted();
        NodeHeartbeat heartbeat = started != null ? NodeHeartbeat.delta(nodeId, limits, usage, started, finishedJobs)
                : new NodeHeartbeat(nodeId, limits, usage, runningJobs(), finishedJobs);
        return meters.told(heartbeat, jobs.values())
                .withJobStatus(checkpoints.withCheckpoints(images.statuses(jobs.values()), jobs.values(), clock.millis()));
    }

    /** The scheduler answered the heartbeat: results acknowledged, jobs to start, stop and kill. */
    public void reply(HeartbeatReply reply) {
        acknowledge(reply.wantsResync());
        for (HeartbeatReply.JobToStart start : reply.jobsToStart()) {
            starts.accept(start);
        }
        for (HeartbeatReply.JobToAbort abort : reply.jobsToAbort()) {
            stop(abort.jobId(), FinishedJob.Outcome.ABORTED, "aborted by the scheduler (" + abort.reason() + ")"
                    + (abort.message() == null || abort.message().isEmpty() ? "" : ": " + abort.message()), 0);
        }
        for (HeartbeatReply.JobToInterrupt interrupt : reply.jobsToInterrupt()) {
            stop(interrupt.jobId(), FinishedJob.Outcome.ABORTED, "interrupted by the scheduler (" + interrupt.reason()
                    + ")" + (interrupt.message() == null ? "" : ": " + interrupt.message()), interrupt.graceMs());
        }
        ledger.replyApplied();
        syncBroker();
    }

    /** What was reported is acknowledged: the logs of the jobs whose results went are archived. */
    private void acknowledge(boolean resync) {
        for (String jobId : reports.acknowledged(resync, clock.millis())) {
            nodeTasks.submit(BrokerConfig.LOG_ARCHIVE, "archive:" + jobId);
        }
    }

    /** The heartbeat got no reply (the connection dropped): its results will be sent again. */
    public void heartbeatLost() {
        reports.lost();
        checkpoints.tellAgain(jobs.values());
        ledger.heartbeatLost();
        syncBroker();
    }

    // ---------------------------------------------------------------- jobs

    /**
     * Stops a job: a job not started yet ends at once; a running one gets SIGTERM on its whole
     * process tree and SIGKILL after {@code graceMs} (at once when 0).
     */
    private void stop(String jobId, FinishedJob.Outcome outcome, String message, long graceMs) {
        AgentJob job = jobs.get(jobId);
        if (job == null) {
            return;
        }
        if (job.state == AgentJob.State.PULLING || job.state == AgentJob.State.PREPARING
                || job.state == AgentJob.State.CHECKING) {
            if (job.state == AgentJob.State.PREPARING) {
                dispatch(broker.remove(clock.millis(), SELF, job.prepareTaskId));
                nodeTasks.forget(job.prepareTaskId);
            } else if (job.state == AgentJob.State.PULLING) {
                images.cancel(job);
            }
            starts.notStarted(job, outcome, message);
            return;
        }
        if (job.state == AgentJob.State.STOPPING) {
            if (graceMs == 0) {
                job.handle.kill();
            }
            return;
        }
        job.state = AgentJob.State.STOPPING;
        job.stopOutcome = outcome;
        job.stopMessage = message;
        LOG.info("job {}: stopping ({}), grace {} ms", jobId, message, graceMs);
        if (graceMs == 0) {
            job.handle.kill();
            return;
        }
        job.handle.terminate();
        JobRunner.Handle handle = job.handle;
        timers.after(graceMs, () -> {
            if (jobs.get(jobId) == job) {
                LOG.info("job {}: still running after its grace of {} ms, killing it", jobId, graceMs);
                handle.kill();
            }
        });
    }

    private void exited(String jobId, Integer code) {
        AgentJob job = jobs.remove(jobId);
        if (job == null) {
            return;
        }
        boolean pidsLimited = containment.pidsLimitReached(jobId);
        // its last CPU count and its GPU-seconds, before its cgroup and devices go
        meters.ended(job);
        boolean outOfMemory = containment.ended(jobId, job.handle);
        ledger.jobEnded(job.spec.resources());
        images.exited(job);
        checkpoints.exited(job, clock.millis());
        long diskLimit = containment.policy().diskOf(job.spec);
        JobEnding ending = JobEnding.of(job, code, outOfMemory, pidsLimited, meters.memoryLimit(job),
                containment.policy().pidsLimit(), diskLimit, workDir.outputReached(jobId, diskLimit), tailOf(jobId));
        finished(new FinishedJob(jobId, ending.outcome(), ending.exitCode(), ending.error(), job.startedAtMs,
                clock.millis()), job);
    }

    private void finished(FinishedJob result, AgentJob job) {
        try {
            if (Files.exists(workDir.jobDir(result.jobId()))) {
                disk.reserve().write(this::stopJobsOverDiskNow, () -> workDir.writeResult(result));
            }
        } catch (IOException e) {
            LOG.warn("job {}: cannot write its result ({})", result.jobId(), e.getMessage());
        }
        reports.finished(result);
        LOG.info("job {}: {}{}", result.jobId(), result.outcome().name().toLowerCase(Locale.ROOT),
                result.error() == null ? "" : " (" + firstLine(result.error()) + ")");
        listener.jobEnded(result);
        syncBroker();
        heartbeatSoon.run();
    }

    /**
     * Measures every running job's process tree; a tree whose resident memory is above the job's
     * memory is killed and reported failed with the numbers.
     */
    public void sample() {
        if (containment.gpus().reread()) {
            // an admin put a GPU back (or took one out): the next heartbeat offers what is in service
            ledger.gpusInService(containment.gpus().inService());
        }
        meters.sampled(proc.groups(), jobs.values(), clock.millis())
                .forEach((jobId, why) -> stop(jobId, FinishedJob.Outcome.FAILED, why, 0));
    }

    /** The node's GPUs as {@code nvidia-smi} saw them ({@link NodeMeters#gpusSampled}). */
    public void gpusSampled(Map<Integer, GpuSample> samples) {
        meters.gpusSampled(samples, jobs.values());
    }

    /** What to measure of each running job's disk: its sandbox (with its private /tmp) and its logs. */
    public List<NodeDisk.Check> diskChecks() {
        return meters.diskChecks(jobs.values());
    }

    /**
     * Jobs' disk as measured: a job above its {@code disk_space} (or the node's default for one that
     * ordered none) is stopped; the agent's reserve is made again when the disk has room.
     */
    public void diskMeasured(Map<String, Long> used) {
        meters.overDisk(used, jobs).forEach((jobId, why) -> stop(jobId, FinishedJob.Outcome.FAILED, why, 0));
    }

    /**
     * The disk is full and the agent must write: every job is measured now and those above their
     * disk are killed first, so that the room the agent's reserve gives up is never taken by the
     * job that filled the disk (on the agent's thread; only on this rare path).
     */
    private void stopJobsOverDiskNow() {
        diskMeasured(NodeDisk.measure(diskChecks()));
    }

    /** Kills every job (agent shutdown); their results are kept for the next run to report. */
    public void killAll() {
        for (AgentJob job : new ArrayList<>(jobs.values())) {
            stop(job.spec.jobId(), FinishedJob.Outcome.ABORTED, "the node agent shut down", 0);
        }
    }

    /** Removes archived logs older than the retention (a broker task). */
    public void expireLogs() {
        nodeTasks.submit(BrokerConfig.SANDBOX_CLEANUP, "expire");
    }

    // ---------------------------------------------------------------- broker

    /** The node's Resource Broker, for the loopback endpoint and the monitoring view. */
    public ResourceBroker broker() {
        return broker;
    }

    /** How this node runs jobs in container images, or why it does not. */
    public NodeImages images() {
        return images.images();
    }

    /** Applies broker events: the agent's own tasks run, the others go to their clients. */
    public void dispatch(List<BrokerEvent> events) {
        ArrayList<BrokerEvent> queue = new ArrayList<>(events);
        for (int i = 0; i < queue.size(); i++) {
            BrokerEvent event = queue.get(i);
            listener.brokerEvent(event);
            if (event instanceof BrokerEvent.Allocated allocated && allocated.client().equals(SELF)) {
                if (nodeTasks.run(allocated.taskId(), allocated.cookie())) {
                    queue.addAll(broker.finish(clock.millis(), SELF, allocated.taskId()));
                }
            } else if (!event.client().equals(SELF)) {
                brokerClients.accept(event.client(), event);
            }
        }
        ledger.brokerHolds(broker.used());
    }

    /** Tells the broker how much of the node it may use now and applies what follows. */
    public void syncBroker() {
        ledger.brokerHolds(broker.used());
        dispatch(broker.setNodeCapacity(clock.millis(), ledger.brokerCapacity()));
    }

    /** A job's sandbox task was allocated: it goes on starting. */
    private void prepared(String jobId) {
        starts.prepared(jobId);
    }

    private void cleanedUp(String jobId) {
        containment.cleanedUp(jobId);
        if (!jobs.containsKey(jobId)) {
            // a job of a previous run kept its devices until now
            containment.gpus().release(jobId);
        }
    }

    // ---------------------------------------------------------------- views

    public int jobCount() {
        return jobs.size();
    }

    /** Results not yet acknowledged by the scheduler. */
    public int pendingResults() {
        return reports.pendingResults();
    }

    public JobUsers jobUsers() {
        return containment.users();
    }

    public NodeLedger ledger() {
        return ledger;
    }

    public Resources node() {
        return node;
    }

    public String nodeId() {
        return nodeId;
    }

    private String tailOf(String jobId) {
        String tail = workDir.log(jobId, "stderr").map(p -> WorkDir.tail(p, STDERR_TAIL_BYTES)).orElse("").strip();
        return tail.isEmpty() ? "" : "; stderr ends with:\n" + tail;
    }


    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
