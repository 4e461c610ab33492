package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.gpu.Gpu;
import io.grove.agent.gpu.GpuCheck;
import io.grove.agent.gpu.GpuDiscovery;
import io.grove.agent.gpu.NodeGpus;
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
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GPUs given to jobs one by one, with a fake {@code nvidia-smi} and fake device nodes (character
 * devices of NVIDIA's major number 195, made with mknod): no driver answers them, so a job that may
 * open its device gets "No such device or address", and one the devices controller refuses gets
 * "Operation not permitted".
 */
class JobGpusTest {

    private static final List<Gpu> TWO = List.of(new Gpu(0, "GPU-aaaa", "NVIDIA A100-SXM4-80GB", 80L << 30, 40),
            new Gpu(1, "GPU-bbbb", "NVIDIA A100-SXM4-80GB", 80L << 30, 41));
    private JobCgroups made;

    @AfterEach
    void removeCgroups() {
        if (made != null) {
            made.removeAll();
        }
    }

    private static HeartbeatReply.JobToStart gpuJob(String id, String command, int gpus) {
        return new HeartbeatReply.JobToStart(id, "op-1", "main", 0, command, Map.of(), new Resources(1, 1, gpus, 0, 0));
    }

    @Test
    void nvidiaSmiTellsTheGpusAndTheDriverTheirMinors(@TempDir Path dir) throws Exception {
        Path smi = dir.resolve("nvidia-smi");
        Files.writeString(smi, "#!/bin/sh\n[ \"$1\" = --query-gpu=index,uuid,name,memory.total,pci.bus_id ] || exit 9\n"
                + "echo '0, GPU-11111111-2222, NVIDIA H100 80GB HBM3, 81559, 00000000:3B:00.0'\n"
                + "echo '1, GPU-33333333-4444, NVIDIA H100 80GB HBM3, 81559, 00000000:5E:00.0'\n");
        Files.setPosixFilePermissions(smi, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path driver = dir.resolve("gpus");
        Files.createDirectories(driver.resolve("0000:5e:00.0"));
        Files.writeString(driver.resolve("0000:5e:00.0/information"), "Model: NVIDIA H100\nDevice Minor: \t 7\n");
        List<Gpu> gpus = GpuDiscovery.discover(smi, driver);
        assertEquals(List.of(new Gpu(0, "GPU-11111111-2222", "NVIDIA H100 80GB HBM3", 81559L << 20, 0),
                new Gpu(1, "GPU-33333333-4444", "NVIDIA H100 80GB HBM3", 81559L << 20, 7)), gpus);
        assertEquals("gpu_model:nvidia-h100-80gb-hbm3", Gpu.modelTag(gpus.get(0).model()));
        assertEquals(List.of(), GpuDiscovery.discover(dir.resolve("absent"), driver), "no nvidia-smi: no GPUs");
    }

    @Test
    void twoJobsGetDisjointDevicesAndTheDevicesControllerRefusesEachTheOthers(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "device nodes and cgroups need root");
        made = JobCgroups.detect("grove-gpu-test-" + Long.toHexString(System.nanoTime()));
        Assumptions.assumeTrue(made.controls("devices"), made.describe());
        Path devices = Files.createDirectory(dir.resolve("dev"));
        for (Gpu gpu : TWO) {
            Process mknod = new ProcessBuilder("/usr/bin/mknod", "-m", "666", devices.resolve("nvidia" + gpu.minor()).toString(),
                    "c", "195", Integer.toString(gpu.minor())).inheritIO().start();
            assertEquals(0, mknod.waitFor());
        }
        String probe = "for m in 40 41; do if (exec 3<" + devices + "/nvidia$m) 2>/tmp/grove-gpu-probe-$$; then "
                + "echo \"$m opened\"; else echo \"$m: $(cat /tmp/grove-gpu-probe-$$)\"; fi; done; rm -f /tmp/grove-gpu-probe-$$; "
                + "echo \"CUDA=$CUDA_VISIBLE_DEVICES NVIDIA=$NVIDIA_VISIBLE_DEVICES GROVE=$GROVE_GPU_UUIDS ORDER=$CUDA_DEVICE_ORDER\"";
        try (AgentFixture f = new AgentFixture(dir.resolve("work"), JobUsers.none(), made, JobPolicy.DEFAULTS,
                new NodeGpus(TWO, null), GpuCheck.none())) {
            f.start(gpuJob("op-1-1", probe + "; exec sleep 30", 1));
            f.started.take();
            f.start(gpuJob("op-1-2", probe, 1));
            FinishedJob second = f.resultOf("op-1-2");
            assertEquals(FinishedJob.Outcome.COMPLETED, second.outcome(), String.valueOf(second.error()));
            WorkDir work = new WorkDir(dir.resolve("work"));
            Path firstOut = work.jobDir("op-1-1").resolve("stdout");
            ClusterFixture.await("the first job's probe", ClusterFixture.unchecked(() -> Files.readString(firstOut).contains("CUDA=")));
            String first = Files.readString(firstOut);
            String other = Files.readString(work.log("op-1-2", "stdout").orElseThrow());
            assertTrue(first.contains("40: ") && first.contains("No such device or address"), "its own device: " + first);
            assertTrue(first.contains("41: ") && first.contains("Operation not permitted"), "the other's: " + first);
            assertTrue(first.contains("CUDA=0 NVIDIA=GPU-aaaa GROVE=GPU-aaaa ORDER=PCI_BUS_ID"), first);
            assertTrue(other.matches("(?s).*40: [^\\n]*Operation not permitted.*"), "refused the first job's: " + other);
            assertTrue(other.matches("(?s).*41: [^\\n]*No such device or address.*"), "its own: " + other);
            assertTrue(other.contains("CUDA=1 NVIDIA=GPU-bbbb"), other);
        }
    }

    @Test
    void aJobOrderingMoreGpusThanAreFreeFailsAndTheHeartbeatNamesItsDevices(@TempDir Path dir) throws Exception {
        try (AgentFixture f = new AgentFixture(dir, JobUsers.none(), JobCgroups.none("a GPU test"), JobPolicy.DEFAULTS,
                new NodeGpus(TWO, null), GpuCheck.none())) {
            NodeHeartbeat started = f.start(gpuJob("op-1-1", "exec sleep 30", 2));
            assertEquals(2.0, started.resourceLimits().gpu(), "both offered");
            NodeHeartbeat next = f.exchange(new HeartbeatReply(List.of(gpuJob("op-1-2", "true", 1)), List.of(), List.of(), 1000));
            assertEquals(List.of("GPU-aaaa", "GPU-bbbb"), next.startedJobs().isEmpty()
                    ? next.runningJobs().get(0).gpus() : next.startedJobs().get(0).gpus());
            FinishedJob refused = f.resultOf("op-1-2");
            assertTrue(refused.error().contains("orders 1 GPU(s) but 0 of the node's 2 are free"), refused.error());
        }
    }

    @Test
    void aRestartedAgentNeverGivesADeviceOfAJobOfItsPreviousRunBeforeThatJobIsGone(@TempDir Path dir) throws Exception {
        Path work = dir.resolve("work");
        try (AgentFixture before = new AgentFixture(work, JobUsers.none(), JobCgroups.none("a GPU test"),
                JobPolicy.DEFAULTS, new NodeGpus(TWO, null), GpuCheck.none())) {
            before.start(gpuJob("op-1-1", "exec sleep 30", 1));
            before.started.take();
            Path record = work.resolve("jobs").resolve("op-1-1").resolve("job.json");
            ClusterFixture.await("the job's record", () -> Files.exists(record));
            // the agent dies here (the fixture is left without being told); a new run of it starts
            try (AgentFixture after = new AgentFixture(work, JobUsers.none(), JobCgroups.none("a GPU test"),
                    JobPolicy.DEFAULTS, new NodeGpus(TWO, null), GpuCheck.none())) {
                assertEquals(1, (int) after.call(() -> after.agent.recover()), "the previous run's job is killed");
                // a reply before the killed job's result was even reported: nothing of it is acknowledged yet
                after.call(() -> {
                    after.agent.reply(new HeartbeatReply(List.of(gpuJob("op-2-1", "echo $CUDA_VISIBLE_DEVICES", 1)),
                            List.of(), List.of(), 1000));
                    return null;
                });
                FinishedJob result = after.resultOf("op-2-1");
                assertEquals(FinishedJob.Outcome.COMPLETED, result.outcome(), String.valueOf(result.error()));
                WorkDir dirs = new WorkDir(work);
                assertEquals("1\n", Files.readString(dirs.jobDir("op-2-1").resolve("stdout")),
                        "gpu 0 stays with the killed job until its files are gone");
                // its result acknowledged, its files removed: gpu 0 is given again
                after.start(gpuJob("op-2-2", "echo $CUDA_VISIBLE_DEVICES", 1));
                assertEquals(FinishedJob.Outcome.COMPLETED, after.resultOf("op-2-2").outcome());
                assertEquals("0\n", Files.readString(dirs.jobDir("op-2-2").resolve("stdout")));
            }
        }
    }

    @Test
    void aGpuWhoseCheckFailsIsTakenOutOfServiceUntilAnAdminPutsItBack(@TempDir Path dir) throws Exception {
        Path check = dir.resolve("gpu-check");
        Files.writeString(check, "#!/bin/sh\ncase \"$NVIDIA_VISIBLE_DEVICES\" in *GPU-bbbb*) echo 'Xid 79: fallen off the bus'; "
                + "exit 3;; esac\nexit 0\n");
        Files.setPosixFilePermissions(check, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path work = dir.resolve("work");
        Files.createDirectories(work);
        try (AgentFixture f = new AgentFixture(work, JobUsers.none(), JobCgroups.none("a GPU test"), JobPolicy.DEFAULTS,
                new NodeGpus(TWO, work), new GpuCheck(check, 10_000, Executors.newSingleThreadExecutor()))) {
            f.start(gpuJob("op-1-1", "exec sleep 30", 1), gpuJob("op-1-2", "echo ran", 1));
            FinishedJob failed = f.resultOf("op-1-2");
            assertEquals(FinishedJob.Outcome.ABORTED, failed.outcome(), "not the job's fault: it runs again elsewhere");
            assertTrue(failed.error().contains("the GPU check failed on [gpu 1 (GPU-bbbb)]")
                    && failed.error().contains("Xid 79: fallen off the bus"), failed.error());
            assertFalse(Files.exists(new WorkDir(work).jobDir("op-1-2").resolve("stdout"))
                    && Files.readString(new WorkDir(work).jobDir("op-1-2").resolve("stdout")).contains("ran"));
            NodeHeartbeat out = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertEquals(1.0, out.resourceLimits().gpu(), "the node offers one GPU fewer");
            assertEquals(1, out.gpusOutOfService().size());
            assertTrue(out.gpusOutOfService().get(0).startsWith("gpu 1 (GPU-bbbb): check failed"), out.gpusOutOfService().toString());
            // the admin puts it back
            Files.delete(work.resolve(NodeGpus.OUT_OF_SERVICE_DIR).resolve("1"));
            f.call(() -> {
                f.agent.sample();
                return null;
            });
            NodeHeartbeat back = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertEquals(2.0, back.resourceLimits().gpu());
            assertEquals(List.of(), back.gpusOutOfService());
        }
    }

    @Test
    void aGpuThatNvidiaSmiReportsFailedIsTakenOutOfService(@TempDir Path dir) throws Exception {
        Path smi = dir.resolve("nvidia-smi");
        Files.writeString(smi, "#!/bin/sh\necho '0, 87, 1024'\necho '1, [GPU requires reset], [GPU requires reset]'\n");
        Files.setPosixFilePermissions(smi, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<Integer, io.grove.agent.gpu.GpuSample> samples = GpuDiscovery.sample(smi, TWO);
        assertEquals(87.0, samples.get(0).utilization());
        assertEquals(1024L << 20, samples.get(0).memoryUsedBytes());
        assertTrue(samples.get(1).failure().contains("[GPU requires reset]"), samples.get(1).toString());
        try (AgentFixture f = new AgentFixture(dir.resolve("work"), JobUsers.none(), JobCgroups.none("a GPU test"),
                JobPolicy.DEFAULTS, new NodeGpus(TWO, null), GpuCheck.none())) {
            f.call(() -> {
                f.agent.gpusSampled(samples);
                return null;
            });
            NodeHeartbeat heartbeat = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertEquals(1.0, heartbeat.resourceLimits().gpu());
            assertTrue(heartbeat.gpusOutOfService().get(0).startsWith("gpu 1 (GPU-bbbb): nvidia-smi reports it failed"),
                    heartbeat.gpusOutOfService().toString());
        }
    }
}
