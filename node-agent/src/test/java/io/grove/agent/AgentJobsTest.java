package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.job.WorkDir;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.NodeHeartbeat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real processes under a real agent, driven by heartbeat replies. */
class AgentJobsTest {

    @Test
    void aJobThatSucceedsSeesItsEnvironmentAndLeavesItsOutput(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(AgentFixture.job("op-1-1", "echo $GROVE_OPERATION_ID $GROVE_JOB_ID $GROVE_JOB_INDEX $GROVE_TASK $MODE;"
                    + " pwd", 0));
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.COMPLETED, result.outcome());
            assertEquals(0, result.exitCode());
            assertNull(result.error());
            assertTrue(result.finishedAtMs() >= result.startedAtMs() && result.startedAtMs() > 0);
            String stdout = Files.readString(new WorkDir(work).log("op-1-1", "stdout").orElseThrow());
            assertEquals("op-1 op-1-1 7 main test\n" + work.resolve("jobs/op-1-1/sandbox").toRealPath() + "\n", stdout);

            NodeHeartbeat next = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertEquals(List.of(result), next.finishedJobs(), "reported until acknowledged");
            NodeHeartbeat after = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertEquals(List.of(), after.finishedJobs(), "acknowledged by the reply");
            f.call(() -> null);
            assertFalse(Files.exists(work.resolve("jobs/op-1-1")), "the sandbox is cleaned after the acknowledgement");
            assertTrue(Files.exists(work.resolve("logs/op-1-1/stdout")), "the logs are kept");
        }
    }

    @Test
    void aJobThatFailsReportsItsExitCodeAndTheTailOfStderr(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(AgentFixture.job("op-1-2", "for i in $(seq 1 3000); do echo line $i >&2; done; exit 3", 0));
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.FAILED, result.outcome());
            assertEquals(3, result.exitCode());
            assertTrue(result.error().startsWith("exit code 3; stderr ends with:\n"), result.error());
            assertTrue(result.error().endsWith("line 3000"), result.error());
            assertTrue(result.error().length() < 4200, "only the last 4 KiB: " + result.error().length());
        }
    }

    @Test
    void aJobOverItsMemoryIsKilledWithTheNumbers(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(AgentFixture.job("op-1-3", "a=$(head -c 200000000 /dev/zero | tr '\\0' x); sleep 60", 64L << 20));
            f.loop.scheduleWithFixedDelay(f.agent::sample, 50, 50, TimeUnit.MILLISECONDS);
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.FAILED, result.outcome());
            assertTrue(result.error().startsWith("memory limit exceeded: the job's "), result.error());
            assertTrue(result.error().endsWith("resident, above its memory of 64.0 MiB"), result.error());
            assertNull(result.exitCode());
        }
    }

    @Test
    void aJobIgnoringSigtermIsKilledAfterTheGrace(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(AgentFixture.job("op-1-4", "trap 'echo got TERM >&2' TERM; while true; do sleep 0.05; done", 0));
            long pid = f.started.poll(30, TimeUnit.SECONDS);
            // The loop's first sleep comes after the trap: a SIGTERM sent earlier would find no trap yet.
            waitForChildren(pid, 1);
            long sent = System.nanoTime();
            f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(new HeartbeatReply.JobToInterrupt("op-1-4",
                    "starvation", "op-2", "op-2-1", 700, "preempted for job op-2-1 of operation op-2")), 1000));
            FinishedJob result = f.nextResult();
            long tookMs = (System.nanoTime() - sent) / 1_000_000;
            assertEquals(FinishedJob.Outcome.ABORTED, result.outcome());
            assertTrue(result.error().startsWith("interrupted by the scheduler (starvation): preempted for job op-2-1"),
                    result.error());
            assertTrue(result.error().contains("got TERM"), "it got SIGTERM first: " + result.error());
            assertTrue(tookMs >= 700, "SIGKILL only after the grace: " + tookMs + " ms");
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        }
    }

    @Test
    void anAbortKillsTheWholeProcessTree(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(AgentFixture.job("op-1-5", "sleep 300 & sleep 300 & wait", 0));
            long pid = f.started.poll(30, TimeUnit.SECONDS);
            List<ProcessHandle> children = waitForChildren(pid, 2);
            f.exchange(new HeartbeatReply(List.of(), List.of(new HeartbeatReply.JobToAbort("op-1-5", "ended_by_scheduler",
                    "operation op-1 aborted by alice")), List.of(), 1000));
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.ABORTED, result.outcome());
            assertEquals("aborted by the scheduler (ended_by_scheduler): operation op-1 aborted by alice", result.error());
            for (ProcessHandle child : children) {
                child.onExit().get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void afterACrashTheNextAgentKillsTheOrphansAndReportsThemAborted(@TempDir Path work) throws Exception {
        AgentFixture crashed = new AgentFixture(work);
        crashed.start(AgentFixture.job("op-1-6", "sleep 300", 0));
        long pid = crashed.started.poll(30, TimeUnit.SECONDS);
        crashed.loop.shutdownNow();  // the agent dies; its job's process group lives on
        assertTrue(ProcessHandle.of(pid).orElseThrow().isAlive());
        try (AgentFixture restarted = new AgentFixture(work)) {
            int killed = restarted.call(restarted.agent::recover);
            assertEquals(1, killed);
            ProcessHandle.of(pid).ifPresent(p -> p.onExit().join());
            NodeHeartbeat first = restarted.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertEquals(List.of(), first.runningJobs());
            FinishedJob reported = first.finishedJobs().get(0);
            assertEquals("op-1-6", reported.jobId());
            assertEquals(FinishedJob.Outcome.ABORTED, reported.outcome());
            assertTrue(reported.error().startsWith("the node agent restarted"), reported.error());
        }
    }

    private static List<ProcessHandle> waitForChildren(long pid, int count) {
        ProcessHandle parent = ProcessHandle.of(pid).orElseThrow();
        io.grove.testing.Await.until("the job starts its " + count + " children", () -> parent.children().count() >= count);
        return parent.children().toList();
    }
}
