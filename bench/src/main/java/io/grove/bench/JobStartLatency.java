package io.grove.bench;

import io.grove.agent.Agent;
import io.grove.agent.AgentListener;
import io.grove.agent.AgentParts;
import io.grove.agent.AgentSettings;
import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.gpu.GpuCheck;
import io.grove.agent.gpu.NodeGpus;
import io.grove.agent.image.ImageSettings;
import io.grove.agent.image.NodeImages;
import io.grove.agent.job.JobCgroups;
import io.grove.agent.job.JobPolicy;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.agent.job.WorkDir;
import io.grove.core.operation.ImageReference;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Job start latency of a real agent: rounds of heartbeat replies each starting {@code batch} jobs
 * of {@code true}; the time from the reply to each process being started (the broker's sandbox
 * preparation, the directories, the fork of {@code setsid bash}), and jobs started and ended per
 * second.
 *
 * With {@code contained} (as root), jobs run as the agent runs them in production: a uid of their
 * own, a cgroup with their memory, CPU quota and process limit, a private {@code /tmp}.
 *
 * With {@code image REF} (as root, with crun, skopeo and umoci), jobs are contained and run in the
 * container image {@code REF} (a registry on loopback, {@code bench/image-registry.sh}): a first
 * job alone in a fresh work directory measures the cold start (resolve, pull, unpack, run), the
 * rounds after it the warm one (cached).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.JobStartLatency [rounds] [batch] [bare|contained|image REF]</pre>
 */
public final class JobStartLatency {

    private JobStartLatency() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        String image = args.length > 3 && args[2].equals("image") ? args[3] : null;
        boolean contained = args.length > 2 && (args[2].equals("contained") || image != null);
        Path work = Files.createTempDirectory("grove-start-latency");
        JobUsers users = contained ? JobUsers.forAgent(List.of(), JobUsers.DEFAULT_UIDS, JobUsers.processIsRoot(),
                Path.of("/etc/passwd")) : JobUsers.none();
        JobCgroups cgroups = contained ? JobCgroups.detect("grove-start-latency")
                : JobCgroups.none("the benchmark measures the agent alone");
        System.out.println(contained ? "contained: jobs run as " + users.describe() + "; " + cgroups.describe()
                : "bare: jobs run as this user, without cgroups");
        NodeImages images = image == null ? NodeImages.none("bare jobs")
                : NodeImages.start(new ImageSettings(true,
                        ImageSettings.DEFAULT_CACHE_BYTES, null,
                        List.of(ImageReference.parse(image).registry()), null, null), work, true);
        if (image != null && !images.available()) {
            throw new IllegalStateException("this machine runs no image jobs: " + images.why());
        }
        ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
        List<Long> latencies = new ArrayList<>();
        CountDownLatch[] ended = new CountDownLatch[1];
        Agent agent = loop.submit(() -> new Agent(new AgentParts("bench", new Resources(1000, 1000, 0, 1L << 40, 0),
                AgentSettings.DEFAULT_RESERVE, BrokerConfig.builtIn(), new WorkDir(work, users.switching()), ProcessJobRunner.system(),
                ProcTable.system(), InstantSource.system(),
                (delay, task) -> loop.schedule(task, delay, TimeUnit.MILLISECONDS), () -> { }, (c, e) -> { },
                new AgentListener() {
                    @Override
                    public void jobStarted(String jobId, long pid, long waitedMs) {
                        latencies.add(waitedMs);
                    }

                    @Override
                    public void jobEnded(FinishedJob result) {
                        ended[0].countDown();
                    }
                }, 3_600_000, users, cgroups, JobPolicy.DEFAULTS, NodeGpus.none(),
                GpuCheck.none(), images))).get();
        int id = 0;
        if (image != null) {
            // the cold start: one job, nothing cached
            ended[0] = new CountDownLatch(1);
            HeartbeatReply.JobToStart cold = new HeartbeatReply.JobToStart("job-" + id, "op", "main", id++, "true",
                    Map.of(), new Resources(1, 1, 0, 64 << 20, 0), null, null, null, image);
            loop.submit(() -> {
                agent.heartbeat();
                agent.reply(new HeartbeatReply(List.of(cold), List.of(), List.of(), 1000));
            }).get();
            ended[0].await(300, TimeUnit.SECONDS);
            loop.submit(() -> agent.reply(new HeartbeatReply(List.of(), List.of(), List.of(), 1000))).get();
            System.out.printf("cold start (resolve, pull, unpack, run) of %s: %d ms%n", image,
                    loop.submit(() -> latencies.remove(0)).get());
        }
        long startedAt = System.nanoTime();
        for (int round = 0; round < rounds; round++) {
            List<HeartbeatReply.JobToStart> jobs = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                jobs.add(new HeartbeatReply.JobToStart("job-" + id, "op", "main", id++, "true", Map.of(),
                        new Resources(1, 1, 0, 64 << 20, 0), null, null, null, image));
            }
            ended[0] = new CountDownLatch(batch);
            loop.submit(() -> {
                agent.heartbeat();
                agent.reply(new HeartbeatReply(jobs, List.of(), List.of(), 1000));
            }).get();
            ended[0].await(60, TimeUnit.SECONDS);
            loop.submit(() -> agent.reply(new HeartbeatReply(List.of(), List.of(), List.of(), 1000))).get();
        }
        double seconds = (System.nanoTime() - startedAt) / 1e9;
        long[] sorted = loop.submit(() -> latencies.stream().mapToLong(Long::longValue).toArray()).get();
        Arrays.sort(sorted);
        System.out.printf("%d jobs in %d rounds of %d: %.1f s, %.0f jobs/s started and ended;"
                + " start latency p50 %d ms, p99 %d ms, max %d ms%n", sorted.length, rounds, batch, seconds,
                sorted.length / seconds, sorted[sorted.length / 2], sorted[(int) (sorted.length * 0.99)],
                sorted[sorted.length - 1]);
        loop.shutdownNow();
        images.close();
        cgroups.removeAll();
    }
}
