package io.grove.agent;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerEvent;
import io.grove.agent.broker.ResourceBroker;
import io.grove.agent.job.JobContainment;
import io.grove.agent.job.JobRunner;
import io.grove.agent.job.JobSpec;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.WorkDir;
import io.grove.agent.node.NodeLedger;
import io.grove.core.resource.ResourceType;
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
    private final ProcTable proc;
    private final ResourceBroker broker;
    private final NodeLedger ledger;
    private final InstantSource clock;
    private final Timers timers;
    private final Runnable heartbeatSoon;
    private final BiConsumer<String, BrokerEvent> brokerClients;
    private final AgentListener listener;
    private final JobContainment containment;

    private final Map<String, AgentJob> jobs = new LinkedHashMap<>();
    private final Reports reports = new Reports();
    private final NodeTasks nodeTasks;

    public Agent(AgentParts parts) {
        this.nodeId = parts.nodeId();
        this.node = parts.node();
        this.workDir = parts.workDir();
        this.proc = parts.proc();
        this.clock = parts.clock();
        this.broker = new ResourceBroker(parts.brokerConfig().withNodeTasks(), clock.millis());
        this.ledger = new NodeLedger(node, parts.brokerReserve());
        this.timers = parts.timers();
        this.heartbeatSoon = parts.heartbeatSoon();
        this.brokerClients = parts.brokerClients();
        this.listener = parts.listener();
        this.nodeTasks = new NodeTasks(workDir, clock, parts.logRetentionMs(),
                request -> dispatch(broker.submit(clock.millis(), SELF, request)), this::prepared, this::cleanedUp);
        this.containment = new JobContainment(nodeId, workDir, parts.runner(), parts.jobUsers(), parts.cgroups(),
                parts.policy());
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
            running.add(new RunningJob(job.spec.jobId(), job.spec.operationId(), job.usage));
        }
        return running;
    }

    /** The limits to offer in a handshake (no heartbeat in flight). */
    public Resources offered() {
        return ledger.offered();
    }

    /**
     * The results to carry in a handshake: jobs that ended while the scheduler was unreachable.
     * The welcome acknowledges them ({@link #welcomed}), so the scheduler learns how they ended
     * before it decides that jobs missing from the running list were lost.
     */
    public List<FinishedJob> handshakeResults() {
        return reports.reportResults();
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
        return started != null ? NodeHeartbeat.delta(nodeId, limits, usage, started, finishedJobs)
                : new NodeHeartbeat(nodeId, limits, usage, runningJobs(), finishedJobs);
    }

    /** The scheduler answered the heartbeat: results acknowledged, jobs to start, stop and kill. */
    public void reply(HeartbeatReply reply) {
        acknowledge(reply.wantsResync());
        for (HeartbeatReply.JobToStart start : reply.jobsToStart()) {
            accept(start);
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
        for (String jobId : reports.acknowledged(resync)) {
            nodeTasks.submit(BrokerConfig.LOG_ARCHIVE, "archive:" + jobId);
        }
    }

    /** The heartbeat got no reply (the connection dropped): its results will be sent again. */
    public void heartbeatLost() {
        reports.lost();
        ledger.heartbeatLost();
        syncBroker();
    }

    // ---------------------------------------------------------------- jobs

    private void accept(HeartbeatReply.JobToStart start) {
        if (jobs.containsKey(start.jobId()) || reports.hasResult(start.jobId())) {
            return;
        }
        JobSpec spec = new JobSpec(start.jobId(), start.operationId(), start.task(), start.index(), start.command(),
                start.env(), start.resources());
        if (!WorkDir.isSafeId(start.jobId())) {
            finished(new FinishedJob(start.jobId(), FinishedJob.Outcome.FAILED, null,
                    "could not start: the job id is not usable as a directory name", 0, clock.millis()), null);
            return;
        }
        AgentJob job = new AgentJob(spec);
        job.acceptedAtMs = clock.millis();
        jobs.put(spec.jobId(), job);
        reports.started(new RunningJob(spec.jobId(), spec.operationId(), Resources.ZERO));
        ledger.jobStarted(spec.resources());
        job.prepareTaskId = nodeTasks.submit(BrokerConfig.SANDBOX_PREPARE, "prepare:" + spec.jobId());
    }

    /** The broker allocated the preparation: make the sandbox and start the process. */
    private void launch(AgentJob job) {
        JobSpec spec = job.spec;
        long now = clock.millis();
        try {
            job.handle = containment.start(spec);
        } catch (IOException | RuntimeException e) {
            jobs.remove(spec.jobId());
            ledger.jobEnded(spec.resources());
            finished(new FinishedJob(spec.jobId(), FinishedJob.Outcome.FAILED, null, "could not start: " + e.getMessage(),
                    now, clock.millis()), null);
            return;
        }
        job.state = AgentJob.State.RUNNING;
        job.startedAtMs = now;
        job.usage = spec.resources().with(ResourceType.MEMORY, 0);
        try {
            workDir.writeRecord(new WorkDir.JobRecord(spec.jobId(), spec.operationId(), job.handle.pid(),
                    proc.startTime(job.handle.pid()).orElse(-1), now));
        } catch (IOException e) {
            LOG.warn("job {}: cannot write its record ({}); it would survive an agent crash", spec.jobId(), e.getMessage());
        }
        listener.jobStarted(spec.jobId(), job.handle.pid(), clock.millis() - job.acceptedAtMs);
        String jobId = spec.jobId();
        job.handle.exit().whenComplete((code, error) -> timers.after(0, () -> exited(jobId, code)));
    }

    /**
     * Stops a job: a job not started yet ends at once; a running one gets SIGTERM on its whole
     * process tree and SIGKILL after {@code graceMs} (at once when 0).
     */
    private void stop(String jobId, FinishedJob.Outcome outcome, String message, long graceMs) {
        AgentJob job = jobs.get(jobId);
        if (job == null) {
            return;
        }
        if (job.state == AgentJob.State.PREPARING) {
            dispatch(broker.remove(clock.millis(), SELF, job.prepareTaskId));
            nodeTasks.forget(job.prepareTaskId);
            jobs.remove(jobId);
            ledger.jobEnded(job.spec.resources());
            finished(new FinishedJob(jobId, outcome, null, message, 0, clock.millis()), null);
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
        boolean outOfMemory = containment.ended(jobId, job.handle);
        ledger.jobEnded(job.spec.resources());
        FinishedJob.Outcome outcome;
        String error;
        if (job.stopOutcome != null) {
            outcome = job.stopOutcome;
            error = job.stopMessage;
        } else if (outOfMemory) {
            outcome = FinishedJob.Outcome.FAILED;
            error = "memory limit exceeded: the kernel killed a process of the job (its cgroup reached its memory of "
                    + mib(memoryLimit(job)) + ")";
        } else if (code != null && code == 0) {
            outcome = FinishedJob.Outcome.COMPLETED;
            error = null;
        } else {
            outcome = FinishedJob.Outcome.FAILED;
            error = code == null ? "the process could not be waited for" : code > 128
                    ? "killed by signal " + (code - 128) : "exit code " + code;
        }
        if (outcome != FinishedJob.Outcome.COMPLETED) {
            if (pidsLimited) {
                error = error + "; the job reached its limit of " + containment.policy().pidsLimit()
                        + " processes and threads, and forks beyond it failed";
            }
            error = error + tailOf(jobId);
        }
        Integer exitCode = job.stopOutcome != null ? null : code;
        finished(new FinishedJob(jobId, outcome, exitCode, error, job.startedAtMs, clock.millis()), job);
    }

    private void finished(FinishedJob result, AgentJob job) {
        try {
            if (Files.exists(workDir.jobDir(result.jobId()))) {
                workDir.writeResult(result);
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
        Map<Long, ProcTable.GroupUsage> groups = proc.groups();
        long now = clock.millis();
        for (AgentJob job : new ArrayList<>(jobs.values())) {
            ProcTable.GroupUsage usage = job.state == AgentJob.State.PREPARING ? null : groups.get(job.handle.pid());
            if (usage == null) {
                continue;
            }
            job.measure(usage, now);
            double limit = memoryLimit(job);
            // with cgroups the kernel holds jobs to their memory; the sampler only measures
            if (!containment.kernelLimitsMemory() && limit > 0 && usage.residentBytes() > limit && job.state == AgentJob.State.RUNNING) {
                stop(job.spec.jobId(), FinishedJob.Outcome.FAILED, "memory limit exceeded: the job's "
                        + usage.processes() + " process(es) hold " + mib(usage.residentBytes())
                        + " resident, above its memory of " + mib(limit), 0);
            }
        }
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

    /** Applies broker events: the agent's own tasks run, the others go to their clients. */
    public void dispatch(List<BrokerEvent> events) {
        ArrayList<BrokerEvent> queue = new ArrayList<>(events);
        for (int i = 0; i < queue.size(); i++) {
            BrokerEvent event = queue.get(i);
            listener.brokerEvent(event);
            if (event instanceof BrokerEvent.Allocated allocated && allocated.client().equals(SELF)) {
                nodeTasks.run(allocated.taskId(), allocated.cookie());
                queue.addAll(broker.finish(clock.millis(), SELF, allocated.taskId()));
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

    private void cleanedUp(String jobId) {
        containment.cleanedUp(jobId);
    }

    /** A job's sandbox task was allocated: the job starts, unless it was stopped meanwhile. */
    private void prepared(String jobId) {
        AgentJob job = jobs.get(jobId);
        if (job != null && job.state == AgentJob.State.PREPARING) {
            launch(job);
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

    /** The memory a job is held to: its order, else the node's default for jobs that ordered none. */
    private long memoryLimit(AgentJob job) {
        return containment.policy().memoryOf((long) job.spec.resources().memory());
    }

    private static String mib(double bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
