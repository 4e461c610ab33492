package io.grove.agent;

import static io.grove.agent.ClusterFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.job.JobCgroups;
import io.grove.agent.job.JobPolicy;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.WorkDir;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.NodeHeartbeat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's disk: its sandbox, its private /tmp and its logs count against its disk_space; the agent keeps room of its own. */
class JobDiskTest {

    private static final long MIB = 1L << 20;

    private static HeartbeatReply.JobToStart job(String id, String command, long disk) {
        return new HeartbeatReply.JobToStart(id, "op-1", "main", 0, command, Map.of(), new Resources(1, 1, 0, 0, 0),
                disk == 0 ? null : disk);
    }

    /** Measures disk as the daemon does until a job ends; returns how it ended. */
    private static FinishedJob measuredUntilEnd(AgentFixture f) throws Exception {
        await("a job to end", () -> {
            try {
                f.measureDisk();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            return !f.results.isEmpty();
        });
        return f.nextResult();
    }

    /** A job that writes {@code command}'s output past its order is stopped; its result is written; the next job runs. */
    private static void stoppedAtItsOrder(Path work, String command, long order) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(job("op-1-1", command + "; exec sleep 60", order));
            FinishedJob result = measuredUntilEnd(f);
            assertEquals(FinishedJob.Outcome.FAILED, result.outcome(), String.valueOf(result.error()));
            // one file past the order is stopped by the kernel (RLIMIT_FSIZE) at once; many smaller ones by the measure
            assertTrue(result.error().startsWith("disk limit exceeded: "), result.error());
            assertTrue(result.error().contains("disk limit of " + (order / MIB) + ".0 MiB")
                    || result.error().contains("above its disk_space of " + (order / MIB) + ".0 MiB"), result.error());
            assertTrue(Files.exists(new WorkDir(work).jobDir("op-1-1").resolve("result.json")), "its result is written");
            f.start(job("op-1-2", "echo next", order));
            FinishedJob next = measuredUntilEnd(f);
            assertEquals(FinishedJob.Outcome.COMPLETED, next.outcome(), String.valueOf(next.error()));
        }
    }

    @Test
    void aJobWritingMoreThanItsDiskSpaceToItsTmpIsStoppedAndTheNextJobRuns(@TempDir Path work) throws Exception {
        stoppedAtItsOrder(work, "head -c 40000000 /dev/zero > $TMPDIR/fill", 16 * MIB);
    }

    @Test
    void aJobFloodingStdoutIsStoppedAtItsDiskOrder(@TempDir Path work) throws Exception {
        stoppedAtItsOrder(work, "head -c 200000000 /dev/zero", 8 * MIB);
    }

    @Test
    void aJobWritingManyFilesIsStoppedByTheMeasure(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(job("op-1-1", "for i in 1 2 3 4 5 6; do head -c 4000000 /dev/zero > $TMPDIR/f$i; done; exec sleep 60",
                    16 * MIB));
            FinishedJob result = measuredUntilEnd(f);
            assertTrue(result.error().startsWith("disk limit exceeded: its sandbox, /tmp and logs hold"), result.error());
        }
    }

    @Test
    void aJobWithoutAnOrderIsHeldToTheNodesDefault(@TempDir Path work) throws Exception {
        JobPolicy policy = JobPolicy.DEFAULTS.withDisk(4 * MIB, 0);
        try (AgentFixture f = new AgentFixture(work, JobUsers.none(), JobCgroups.none("a disk test"), policy)) {
            f.start(job("op-1-1", "head -c 10000000 /dev/zero > big; exec sleep 60", 0));
            FinishedJob result = measuredUntilEnd(f);
            assertTrue(result.error().contains("disk limit of 4.0 MiB") || result.error().contains("node's default disk of 4.0 MiB"),
                    result.error());
        }
    }

    @Test
    void theHeartbeatSaysWhatDiskNewJobsMayOrder(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "a filesystem of its own (nothing else writes there) needs root");
        Path work = mountSmall(dir, "256m");
        try (AgentFixture f = new AgentFixture(work, JobUsers.none(), JobCgroups.none("a disk test"),
                JobPolicy.DEFAULTS.withDisk(1L << 40, 0))) {
            NodeHeartbeat idle = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertTrue(idle.diskSpaceFree() > 200 * MIB && idle.diskSpaceFree() <= 256 * MIB, idle.diskSpaceFree() + " free");
            f.start(job("op-1-1", "exec sleep 60", 100 * MIB));
            NodeHeartbeat busy = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            long promised = idle.diskSpaceFree() - busy.diskSpaceFree();
            assertTrue(promised >= 100 * MIB && promised < 101 * MIB, "a running job's order is not offered again: " + promised);
        } finally {
            unmount(work);
        }
    }

    /**
     * A job that floods the disk faster than it is measured, and goes on writing: when the agent must
     * write (a result), the flooding job is measured and stopped first, so the reserve the agent gives
     * up is its own; both results are written and the flooder's sandbox goes.
     */
    @Test
    void theReserveIsNeverGivenToTheJobThatFilledTheDisk(@TempDir Path dir) throws Exception {
        onASmallDisk(dir, (work, f) -> {
            f.start(job("op-1-1", "i=0; while true; do i=$((i + 1)); head -c 1000000 /dev/zero > f$i 2>/dev/null; "
                    + "done", 8 * MIB));
            await("the disk to fill", () -> new java.io.File(work.toString()).getUsableSpace() == 0);
            f.start(job("op-1-2", "echo second", 0));
            Map<String, FinishedJob> results = new java.util.HashMap<>();
            for (int i = 0; i < 2; i++) {
                FinishedJob result = f.nextResult();
                results.put(result.jobId(), result);
            }
            FinishedJob flooder = results.get("op-1-1");
            assertEquals(FinishedJob.Outcome.FAILED, flooder.outcome());
            assertTrue(flooder.error().startsWith("disk limit exceeded: its sandbox, /tmp and logs hold"), flooder.error());
            // the second could not even be prepared on the full disk; its result is written all the same
            assertTrue(results.containsKey("op-1-2"), results.toString());
            assertTrue(Files.exists(new WorkDir(work).jobDir("op-1-1").resolve("result.json")), "its result is written");
            // acknowledged: the flooder's files go and the node has room again
            await("the flooder's files to be removed", () -> {
                try {
                    return f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000)).unschedulable() == null
                            && !Files.exists(new WorkDir(work).jobDir("op-1-1"));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
        });
    }

    @Test
    void aJobsSandboxIsRemovedEvenWhenItsLogsCannotBeArchived(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            // where the logs would go, something that is no directory of the agent's
            Files.writeString(work.resolve("logs").resolve("op-1-1"), "in the way");
            f.start(job("op-1-1", "head -c 1000000 /dev/zero > big", 0));
            assertEquals(FinishedJob.Outcome.COMPLETED, f.nextResult().outcome());
            await("the sandbox to be removed", () -> {
                try {
                    f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
                    return !Files.exists(new WorkDir(work).jobDir("op-1-1"));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
        }
    }

    /** A tmpfs of {@code size} for a work directory (closed to others, as the agent wants it). */
    private static Path mountSmall(Path dir, String size) throws Exception {
        Path work = Files.createDirectory(dir.resolve("small"));
        Process mount = new ProcessBuilder("/usr/bin/mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "grove-test",
                work.toString()).inheritIO().start();
        assertEquals(0, mount.waitFor());
        return work;
    }

    private static void unmount(Path work) throws Exception {
        new ProcessBuilder("/usr/bin/umount", "-l", work.toString()).inheritIO().start().waitFor();
    }

    /**
     * The work directory on a filesystem of 64 MiB: a job fills it; the agent still writes the job's
     * result (it gives up its reserve), says the node cannot start jobs, and says so no more once
     * the job's files are removed.
     */
    @Test
    void aJobThatFillsTheDiskNeverStopsTheAgentFromWritingItsResult(@TempDir Path dir) throws Exception {
        onASmallDisk(dir, (work, f) -> {
            assertTrue(Files.size(work.resolve("disk-reserve")) == 8 * MIB, "the reserve is written out");
            f.start(job("op-1-1", "for i in $(seq 1 100); do head -c 4000000 /dev/zero > f$i || exit 1; done", 0));
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.FAILED, result.outcome(), String.valueOf(result.error()));
            // its own complaint did not fit on the full disk either; its result does
            assertTrue(result.error().startsWith("exit code 1"), result.error());
            String written = Files.readString(new WorkDir(work).jobDir("op-1-1").resolve("result.json"));
            assertTrue(written.contains("\"outcome\":\"failed\"") && written.contains("exit code 1"),
                    "the result is on disk: " + written);
            NodeHeartbeat full = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertNotNull(full.unschedulable(), "a full disk stops new jobs");
            assertTrue(full.unschedulable().startsWith("disk full"), full.unschedulable());
            // the result was acknowledged with that exchange: the logs are archived and the sandbox removed
            await("the job's files to be removed and the disk to have room", () -> {
                try {
                    return f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000)).unschedulable() == null;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            f.measureDisk();
            assertTrue(Files.exists(work.resolve("disk-reserve")), "the reserve is made again");
            f.start(job("op-1-2", "echo after", 0));
            assertEquals(FinishedJob.Outcome.COMPLETED, f.nextResult().outcome());
        });
    }

    /** What a test does with an agent whose work directory is a 64 MiB filesystem, 8 MiB of it the reserve. */
    private interface OnSmallDisk {
        void run(Path work, AgentFixture f) throws Exception;
    }

    private static void onASmallDisk(Path dir, OnSmallDisk test) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "mounting a small filesystem needs root");
        Path work = mountSmall(dir, "64m");
        try {
            JobPolicy policy = JobPolicy.DEFAULTS.withDisk(1L << 40, 8 * MIB);
            try (AgentFixture f = new AgentFixture(work, JobUsers.none(), JobCgroups.none("a disk test"), policy)) {
                f.measureDisk();
                test.run(work, f);
            }
        } finally {
            unmount(work);
        }
    }
}
