package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.job.JobCgroups;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.WorkDir;
import io.grove.protocol.FinishedJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Jobs in cgroups of their own, on this machine's hierarchy (v1 here, v2 where delegated). */
class JobCgroupsTest {

    private JobCgroups made;

    JobCgroups cgroups() {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "making cgroups needs root");
        made = JobCgroups.detect("grove-test-" + Long.toHexString(System.nanoTime()));
        Assumptions.assumeTrue(made.enabled(), made.describe());
        return made;
    }

    @org.junit.jupiter.api.AfterEach
    void removeCgroups() {
        if (made != null) {
            made.removeAll();
        }
    }

    @Test
    void aProcessThatLeavesItsSessionIsStillKilledWithTheJob(@TempDir Path work) throws Exception {
        JobCgroups cgroups = cgroups();
        try (AgentFixture f = new AgentFixture(work, JobUsers.none(), cgroups)) {
            f.start(AgentFixture.job("op-1-1", "setsid bash -c 'sleep 400' </dev/null >/dev/null 2>&1 & echo $!; sleep 0.2", 0));
            f.started.take();
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.COMPLETED, result.outcome(), String.valueOf(result.error()));
            long escaped = Long.parseLong(Files.readString(new WorkDir(work).log("op-1-1", "stdout").orElseThrow()).trim());
            assertFalse(JobIsolationTest.running(escaped), "the process in its own session outlived the job");
            assertEquals(List.of(), cgroups.pids("op-1-1"));
        }
    }

    @Test
    void theKernelHoldsAJobToItsMemory(@TempDir Path work) throws Exception {
        JobCgroups cgroups = cgroups();
        try (AgentFixture f = new AgentFixture(work, JobUsers.none(), cgroups)) {
            // 400 MB of 'a' into a shell variable, in a job of 64 MiB; the sampler alone could miss it
            f.start(AgentFixture.job("op-1-1", "x=$(head -c 400000000 /dev/zero | tr '\\0' a); echo survived", 64L << 20));
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.FAILED, result.outcome(), String.valueOf(result.error()));
            assertTrue(result.error().startsWith("memory limit exceeded: the kernel killed a process of the job"),
                    result.error());
            assertFalse(Files.readString(new WorkDir(work).log("op-1-1", "stdout").orElseThrow()).contains("survived"));
        }
    }

    @Test
    void aRestartedAgentKillsWhatIsLeftInTheCgroupsOfThePreviousRun(@TempDir Path work) throws Exception {
        JobCgroups cgroups = cgroups();
        List<Path> procs = cgroups.create("op-9-1", 0);
        Process orphan = new ProcessBuilder("bash", "-c", "echo $$ > " + procs.get(0) + " && exec sleep 400").start();
        for (int i = 0; i < 10_000 && cgroups.pids("op-9-1").isEmpty(); i++) {
            Thread.onSpinWait();
        }
        assertEquals(List.of(orphan.pid()), cgroups.pids("op-9-1"));
        assertEquals(1, cgroups.sweep());
        assertEquals(List.of(), cgroups.pids("op-9-1"));
        orphan.waitFor();
    }
}
