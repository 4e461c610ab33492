package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.job.CgroupLimits;
import io.grove.agent.job.CpuLimit;
import io.grove.agent.job.CpuUsage;
import io.grove.agent.job.JobCgroups;
import io.grove.agent.job.JobPolicy;
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
        List<Path> procs = cgroups.create("op-9-1", CgroupLimits.memory(0));
        Process orphan = new ProcessBuilder("bash", "-c", "echo $$ > " + procs.get(0) + " && exec sleep 400").start();
        for (int i = 0; i < 10_000 && cgroups.pids("op-9-1").isEmpty(); i++) {
            Thread.onSpinWait();
        }
        assertEquals(List.of(orphan.pid()), cgroups.pids("op-9-1"));
        assertEquals(1, cgroups.sweep());
        assertEquals(List.of(), cgroups.pids("op-9-1"));
        orphan.waitFor();
    }

    /** Starts a job of {@code cpu} cores spinning 4 threads and returns its cgroup's count after 20 quota periods. */
    private static CpuUsage spin(AgentFixture f, JobCgroups cgroups, String jobId, double cpu) throws Exception {
        f.start(new io.grove.protocol.HeartbeatReply.JobToStart(jobId, "op-1", "main", 0,
                "for i in 1 2 3 4; do (while :; do :; done) & done; exec sleep 60", java.util.Map.of(),
                new io.grove.core.resource.Resources(1, cpu, 0, 0, 0)));
        f.started.take();
        // the kernel's quota periods are the clock: 20 of them are 2 s of the job's life
        ClusterFixture.await("20 CPU periods of " + jobId, () -> cgroups.cpuUsage(jobId).map(u -> u.periods() >= 20).orElse(false));
        return cgroups.cpuUsage(jobId).orElseThrow();
    }

    private static double cores(CpuUsage usage) {
        return usage.usageNanos() / (usage.periods() * CgroupLimits.CPU_PERIOD_US * 1000.0);
    }

    @Test
    void aOneCpuJobSpinningFourThreadsGetsAboutOneCore(@TempDir Path work) throws Exception {
        JobCgroups cgroups = cgroups();
        Assumptions.assumeTrue(cgroups.controls("cpu") && cgroups.controls("cpuacct") || cgroups.version() == JobCgroups.Version.V2,
                cgroups.describe());
        try (AgentFixture f = new AgentFixture(work, JobUsers.none(), cgroups)) {
            CpuUsage one = spin(f, cgroups, "op-1-1", 1);
            assertTrue(cores(one) <= 1.2, "a 1-cpu job of 4 spinning threads used " + cores(one) + " cores: " + one);
            f.exchange(new io.grove.protocol.HeartbeatReply(List.of(), List.of(new io.grove.protocol.HeartbeatReply.JobToAbort(
                    "op-1-1", "test", "enough")), List.of(), 1000));
            f.nextResult();
            // a quarter of a core: throttled in almost every period however busy the machine is
            CpuUsage quarter = spin(f, cgroups, "op-1-2", 0.25);
            assertTrue(cores(quarter) <= 0.3, "a 0.25-cpu job of 4 spinning threads used " + cores(quarter) + " cores");
            assertTrue(quarter.throttledShare() > 0.5, "it was throttled in most periods: " + quarter);
            // and the scheduler is told, for the job's view and the operation's explanation
            f.call(() -> {
                f.agent.sample();
                return null;
            });
            io.grove.protocol.NodeHeartbeat heartbeat = f.exchange(new io.grove.protocol.HeartbeatReply(List.of(),
                    List.of(), List.of(), 1000));
            io.grove.protocol.JobCpu told = heartbeat.jobCpu().stream().filter(c -> c.jobId().equals("op-1-2"))
                    .findFirst().orElseThrow();
            assertTrue(told.throttledShare() > 0.5 && told.cpuSeconds() > 0.2 && told.throttledSeconds() > 1, told.toString());
        }
    }

    @Test
    void aForkBombFailsInsideItsJobAndTheNextJobStillStarts(@TempDir Path work) throws Exception {
        JobCgroups cgroups = cgroups();
        Assumptions.assumeTrue(cgroups.controls("pids"), cgroups.describe());
        JobPolicy policy = new JobPolicy(CpuLimit.QUOTA, 64, 256L << 20, true);
        try (AgentFixture f = new AgentFixture(work, JobUsers.none(), cgroups, policy)) {
            // an exponential fork bomb, bounded at depth 10 (about 2,000 processes) so that a broken
            // limit fails this test instead of the machine
            f.start(AgentFixture.job("op-1-1", "b() { if [ $1 -gt 0 ]; then b $(($1-1)) & b $(($1-1)) & fi; "
                    + "exec sleep 60; }; b 10", 0));
            f.started.take();
            ClusterFixture.await("the bomb to reach the job's process limit", () -> cgroups.pidsLimitReached("op-1-1"));
            assertTrue(cgroups.pids("op-1-1").size() <= 64, "at most 64 processes: " + cgroups.pids("op-1-1").size());
            f.start(AgentFixture.job("op-1-2", "echo still here", 0));
            FinishedJob next = f.nextResult();
            assertEquals("op-1-2", next.jobId());
            assertEquals(FinishedJob.Outcome.COMPLETED, next.outcome(), String.valueOf(next.error()));
            f.exchange(new io.grove.protocol.HeartbeatReply(List.of(), List.of(new io.grove.protocol.HeartbeatReply.JobToAbort(
                    "op-1-1", "test", "enough")), List.of(), 1000));
            FinishedJob bomb = f.nextResult();
            assertEquals("op-1-1", bomb.jobId());
            assertTrue(bomb.error().contains("the job reached its limit of 64 processes"), bomb.error());
            assertEquals(List.of(), cgroups.pids("op-1-1"), "the bomb is gone with its job");
        }
    }

    @Test
    void aJobThatOrderedNoMemoryIsHeldToTheNodesDefault(@TempDir Path work) throws Exception {
        JobCgroups cgroups = cgroups();
        JobPolicy policy = new JobPolicy(CpuLimit.QUOTA, 4096, 64L << 20, true);
        try (AgentFixture f = new AgentFixture(work, JobUsers.none(), cgroups, policy)) {
            f.start(AgentFixture.job("op-1-1", "x=$(head -c 400000000 /dev/zero | tr '\\0' a); echo survived", 0));
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.FAILED, result.outcome(), String.valueOf(result.error()));
            assertTrue(result.error().contains("its memory of 64.0 MiB"), result.error());
            // the job's tree sets its own default: that one holds
            f.start(new io.grove.protocol.HeartbeatReply.JobToStart("op-1-2", "op-1", "main", 1,
                    "x=$(head -c 400000000 /dev/zero | tr '\\0' a); echo survived", java.util.Map.of(),
                    new io.grove.core.resource.Resources(1, 1, 0, 0, 0), null, 48L << 20, null));
            FinishedJob tree = f.nextResult();
            assertEquals(FinishedJob.Outcome.FAILED, tree.outcome(), String.valueOf(tree.error()));
            assertTrue(tree.error().contains("its memory of 48.0 MiB"), tree.error());
        }
    }

    /**
     * A cgroup v2 filesystem as a delegated subtree looks, built under {@code root} at the node's own
     * paths ({@code /sys/fs/cgroup}); the mount table names them as a node's does.
     */
    private static Path fakeV2(Path root) throws Exception {
        Path mount = root.resolve("sys/fs/cgroup");
        Path own = mount.resolve("grove-agent.service");
        Files.createDirectories(own);
        Files.writeString(mount.resolve("cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma misc\n");
        Files.writeString(own.resolve("cgroup.controllers"), "cpu memory pids\n");
        Path self = root.resolve("proc/self");
        Files.createDirectories(self);
        Files.writeString(self.resolve("cgroup"), "0::/grove-agent.service\n");
        Files.writeString(self.resolve("mountinfo"), "30 23 0:26 / /sys/fs/cgroup"
                + " rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n");
        return self;
    }

    /**
     * A cgroup v1 node, one hierarchy per controller as Debian mounts them ({@code cpu,cpuacct}
     * together), the agent in {@code /grove-agent.service} of each, built under {@code root}.
     */
    private static Path fakeV1(Path root) throws Exception {
        StringBuilder mountinfo = new StringBuilder("25 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n");
        StringBuilder membership = new StringBuilder();
        String[][] hierarchies = {{"memory"}, {"cpu", "cpuacct"}, {"pids"}, {"devices"}, {"freezer"}};
        int id = 30;
        for (String[] controllers : hierarchies) {
            String joined = String.join(",", controllers);
            Path own = root.resolve("sys/fs/cgroup/" + joined + "/grove-agent.service");
            Files.createDirectories(own);
            mountinfo.append(id).append(" 24 0:").append(id).append(" / /sys/fs/cgroup/").append(joined)
                    .append(" rw,nosuid shared:").append(id).append(" - cgroup cgroup rw,").append(joined).append('\n');
            membership.append(id++).append(':').append(joined).append(":/grove-agent.service\n");
        }
        Path self = root.resolve("proc/self");
        Files.createDirectories(self);
        Files.writeString(self.resolve("mountinfo"), mountinfo);
        Files.writeString(self.resolve("cgroup"), membership);
        return self;
    }

    @Test
    void onCgroupV1AJobGetsItsLimitsInEachOfItsControllersForAnyUser(@TempDir Path root) throws Exception {
        JobCgroups v1 = JobCgroups.detect(fakeV1(root), root, "grove-jobs-test");
        assertEquals(JobCgroups.Version.V1, v1.version(), v1.describe());
        assertTrue(v1.describe().contains("[memory, cpu, pids, devices]"), v1.describe());
        Path cgroups = root.resolve("sys/fs/cgroup");
        v1.allowDevices(List.of("c 1:3 rwm", "c 195:* rwm"));
        Path devices = cgroups.resolve("devices/grove-agent.service/grove-jobs-test");
        assertEquals("c 195:* rwm", Files.readString(devices.resolve("devices.allow")), "one rule a write, the last here");
        assertEquals("a", Files.readString(devices.resolve("devices.deny")), "everything denied first");

        List<Path> procs = v1.create("op-1-1", new CgroupLimits(256L << 20, 0.5, CpuLimit.QUOTA, 100,
                List.of("c 195:1 rwm")));
        String job = "grove-agent.service/grove-jobs-test/op-1-1";
        assertEquals(List.of("memory", "cpu,cpuacct", "pids", "devices", "freezer").stream()
                .map(h -> cgroups.resolve(h + "/" + job + "/cgroup.procs")).toList(), procs,
                "its first process joins every hierarchy, the freezer last");
        assertEquals(Long.toString(256L << 20), Files.readString(cgroups.resolve("memory/" + job + "/memory.limit_in_bytes")));
        Path cpu = cgroups.resolve("cpu,cpuacct/" + job);
        assertEquals("100000", Files.readString(cpu.resolve("cpu.cfs_period_us")));
        assertEquals("50000", Files.readString(cpu.resolve("cpu.cfs_quota_us")));
        assertEquals("512", Files.readString(cpu.resolve("cpu.shares")));
        assertEquals("100", Files.readString(cgroups.resolve("pids/" + job + "/pids.max")));
        assertEquals("c 195:1 rwm", Files.readString(cgroups.resolve("devices/" + job + "/devices.deny")),
                "a GPU it was not given");

        v1.create("op-1-2", new CgroupLimits(0, 2, CpuLimit.WEIGHT, 0, List.of()));
        Path weighted = cgroups.resolve("cpu,cpuacct/grove-agent.service/grove-jobs-test/op-1-2");
        assertEquals("-1", Files.readString(weighted.resolve("cpu.cfs_quota_us")), "weight: no quota");
        assertEquals("2048", Files.readString(weighted.resolve("cpu.shares")));
        assertFalse(Files.exists(cgroups.resolve("memory/grove-agent.service/grove-jobs-test/op-1-2/memory.limit_in_bytes")),
                "no memory ordered: none written");

        Files.writeString(cpu.resolve("cpu.stat"), "nr_periods 40\nnr_throttled 30\nthrottled_time 1500000000\n");
        Files.writeString(cpu.resolve("cpuacct.usage"), "2000000000\n");
        assertEquals(new CpuUsage(2_000_000_000L, 1_500_000_000L, 40, 30), v1.cpuUsage("op-1-1").orElseThrow());
        Files.writeString(cgroups.resolve("memory/" + job + "/memory.oom_control"),
                "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
        assertTrue(v1.oomKilled("op-1-1"));
        assertFalse(v1.pidsLimitReached("op-1-2"), "no events yet");
        Files.writeString(cgroups.resolve("pids/" + job + "/pids.events"), "max 2\n");
        assertTrue(v1.pidsLimitReached("op-1-1"));
    }

    @Test
    void aHierarchyWithoutTheMemoryControllerIsNoCgroupsAndSaysWhy(@TempDir Path root) throws Exception {
        Path self = fakeV1(root);
        Files.writeString(self.resolve("mountinfo"), Files.readString(self.resolve("mountinfo"))
                .replaceAll("(?m)^.*/sys/fs/cgroup/memory .*\n", ""));
        JobCgroups none = JobCgroups.detect(self, root, "grove-jobs-test");
        assertEquals(JobCgroups.Version.NONE, none.version());
        assertTrue(none.describe().contains("no cgroup hierarchy with the memory controller is mounted"), none.describe());
    }

    @Test
    void onCgroupV2AJobGetsItsQuotaWeightProcessAndMemoryLimits(@TempDir Path dir) throws Exception {
        JobCgroups v2 = JobCgroups.detect(fakeV2(dir), dir, "grove-jobs-test");
        assertEquals(JobCgroups.Version.V2, v2.version(), v2.describe());
        assertTrue(v2.describe().contains("[memory, cpu, pids]"), v2.describe());
        Path own = dir.resolve("sys/fs/cgroup/grove-agent.service");
        assertEquals("+memory +cpu +pids", Files.readString(own.resolve("cgroup.subtree_control")));
        assertEquals("+memory +cpu +pids", Files.readString(own.resolve("grove-jobs-test/cgroup.subtree_control")));
        List<Path> procs = v2.create("op-1-1", new CgroupLimits(256L << 20, 1.5, CpuLimit.QUOTA, 100, null));
        Path job = own.resolve("grove-jobs-test/op-1-1");
        assertEquals(List.of(job.resolve("cgroup.procs")), procs);
        assertEquals("150000 100000", Files.readString(job.resolve("cpu.max")));
        assertEquals("150", Files.readString(job.resolve("cpu.weight")));
        assertEquals("100", Files.readString(job.resolve("pids.max")));
        assertEquals(Long.toString(256L << 20), Files.readString(job.resolve("memory.max")));
        v2.create("op-1-2", new CgroupLimits(0, 0.25, CpuLimit.WEIGHT, 0, null));
        assertEquals("max 100000", Files.readString(own.resolve("grove-jobs-test/op-1-2/cpu.max")), "weight: no quota");
        assertEquals("25", Files.readString(own.resolve("grove-jobs-test/op-1-2/cpu.weight")));
        Files.writeString(job.resolve("cpu.stat"), "usage_usec 2000000\nuser_usec 1900000\nsystem_usec 100000\n"
                + "nr_periods 40\nnr_throttled 30\nthrottled_usec 1500000\n");
        assertEquals(new CpuUsage(2_000_000_000L, 1_500_000_000L, 40, 30), v2.cpuUsage("op-1-1").orElseThrow());
        Files.writeString(job.resolve("pids.events"), "max 3\n");
        assertTrue(v2.pidsLimitReached("op-1-1"));
    }

    @Test
    void onCgroupV1TheQuotaAndSharesFollowTheOrder() throws Exception {
        JobCgroups cgroups = cgroups();
        Assumptions.assumeTrue(cgroups.version() == JobCgroups.Version.V1 && cgroups.controls("cpu"), cgroups.describe());
        cgroups.create("op-2-1", new CgroupLimits(0, 0.5, CpuLimit.QUOTA, 10, null));
        cgroups.create("op-2-2", new CgroupLimits(0, 2, CpuLimit.WEIGHT, 0, null));
        Path cpu = Path.of("/sys/fs/cgroup/cpu");
        Path one = Files.walk(cpu, 3).filter(p -> p.endsWith("op-2-1")).findFirst().orElseThrow();
        Path two = one.resolveSibling("op-2-2");
        assertEquals("50000", Files.readString(one.resolve("cpu.cfs_quota_us")).trim());
        assertEquals("512", Files.readString(one.resolve("cpu.shares")).trim());
        assertEquals("-1", Files.readString(two.resolve("cpu.cfs_quota_us")).trim(), "weight: no quota");
        assertEquals("2048", Files.readString(two.resolve("cpu.shares")).trim());
        cgroups.killAndRemove("op-2-1");
        cgroups.killAndRemove("op-2-2");
    }
}
