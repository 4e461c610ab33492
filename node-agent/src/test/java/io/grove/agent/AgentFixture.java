package io.grove.agent;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.agent.job.WorkDir;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.NodeHeartbeat;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An agent with real processes on a thread of its own, driven by heartbeat replies written by the
 * test instead of a scheduler. Results arrive through the listener, so tests wait on events.
 */
final class AgentFixture implements AutoCloseable {

    static final Resources NODE = new Resources(4, 4, 0, 8L << 30, 0);

    final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    final BlockingQueue<FinishedJob> results = new LinkedBlockingQueue<>();
    final BlockingQueue<Long> started = new LinkedBlockingQueue<>();
    final Agent agent;

    AgentFixture(Path work) throws Exception {
        this(work, io.grove.agent.job.JobUsers.none());
    }

    /** An agent whose jobs run as {@code users} (the test must run as root for them to switch). */
    AgentFixture(Path work, io.grove.agent.job.JobUsers users) throws Exception {
        this(work, users, io.grove.agent.job.JobCgroups.none("tests without cgroups"));
    }

    /** An agent whose jobs run as {@code users} in {@code cgroups}. */
    AgentFixture(Path work, io.grove.agent.job.JobUsers users, io.grove.agent.job.JobCgroups cgroups) throws Exception {
        this(work, users, cgroups, io.grove.agent.job.JobPolicy.DEFAULTS);
    }

    /** An agent whose jobs run as {@code users} in {@code cgroups}, held to their orders by {@code policy}. */
    AgentFixture(Path work, io.grove.agent.job.JobUsers users, io.grove.agent.job.JobCgroups cgroups,
            io.grove.agent.job.JobPolicy policy) throws Exception {
        this(work, users, cgroups, policy, io.grove.agent.gpu.NodeGpus.none(), io.grove.agent.gpu.GpuCheck.none());
    }

    /** An agent with GPUs, checked by {@code check} before each GPU job. */
    AgentFixture(Path work, io.grove.agent.job.JobUsers users, io.grove.agent.job.JobCgroups cgroups,
            io.grove.agent.job.JobPolicy policy, io.grove.agent.gpu.NodeGpus gpus, io.grove.agent.gpu.GpuCheck check)
            throws Exception {
        this(work, users, cgroups, policy, gpus, check, io.grove.agent.image.NodeImages.none("tests without images"));
    }

    /** An agent that runs jobs in container images as {@code images} says. */
    AgentFixture(Path work, io.grove.agent.job.JobUsers users, io.grove.agent.job.JobCgroups cgroups,
            io.grove.agent.job.JobPolicy policy, io.grove.agent.gpu.NodeGpus gpus, io.grove.agent.gpu.GpuCheck check,
            io.grove.agent.image.NodeImages images) throws Exception {
        WorkDir workDir = new WorkDir(work, users.switching());
        agent = call(() -> new Agent(new AgentParts("n1", NODE.with(io.grove.core.resource.ResourceType.GPU,
                gpus.all().size()), AgentSettings.DEFAULT_RESERVE, BrokerConfig.builtIn(),
                workDir, ProcessJobRunner.system(), ProcTable.system(), java.time.InstantSource.system(),
                (delay, task) -> loop.schedule(task, delay, TimeUnit.MILLISECONDS), () -> { }, (c, e) -> { },
                new AgentListener() {
                    @Override
                    public void jobEnded(FinishedJob result) {
                        results.add(result);
                    }

                    @Override
                    public void jobStarted(String jobId, long pid, long waitedMs) {
                        started.add(pid);
                    }
                }, 3_600_000, users, cgroups, policy, gpus, check, images)));
    }

    <T> T call(Callable<T> work) throws Exception {
        return loop.submit(work).get(30, TimeUnit.SECONDS);
    }

    static HeartbeatReply.JobToStart job(String id, String command, long memory) {
        return new HeartbeatReply.JobToStart(id, "op-1", "main", 7, command, Map.of("MODE", "test"),
                new Resources(1, 1, 0, memory, 0));
    }

    /** A heartbeat goes out and the scheduler answers with {@code reply}. */
    NodeHeartbeat exchange(HeartbeatReply reply) throws Exception {
        return call(() -> {
            NodeHeartbeat heartbeat = agent.heartbeat();
            agent.reply(reply);
            return heartbeat;
        });
    }

    NodeHeartbeat start(HeartbeatReply.JobToStart... jobs) throws Exception {
        return exchange(new HeartbeatReply(List.of(jobs), List.of(), List.of(), 1000));
    }

    /** Measures the running jobs' disk as the daemon's disk meter does, and lets the agent act on it. */
    void measureDisk() throws Exception {
        java.util.Map<String, Long> used = NodeDisk.measure(call(agent::diskChecks));
        call(() -> {
            agent.diskMeasured(used);
            return null;
        });
    }

    /** The result of {@code jobId}, skipping other jobs' results that come first. */
    FinishedJob resultOf(String jobId) throws InterruptedException {
        while (true) {
            FinishedJob result = nextResult();
            if (result.jobId().equals(jobId)) {
                return result;
            }
        }
    }

    FinishedJob nextResult() throws InterruptedException {
        FinishedJob result = results.poll(30, TimeUnit.SECONDS);
        if (result == null) {
            throw new AssertionError("no job ended within 30 s");
        }
        return result;
    }

    @Override
    public void close() throws Exception {
        call(() -> {
            agent.killAll();
            return null;
        });
        // The killed jobs die, and the agent records how they ended in the work directory: wait for
        // both, so that the test's temporary directory is not deleted under them.
        for (ProcessHandle process : ProcessHandle.current().descendants().toList()) {
            try {
                process.onExit().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException stillRunning) {
                process.destroyForcibly();
            }
        }
        loop.shutdown();
        if (!loop.awaitTermination(10, TimeUnit.SECONDS)) {
            loop.shutdownNow();
        }
    }
}
