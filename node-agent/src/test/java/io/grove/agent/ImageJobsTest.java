package io.grove.agent;

import static io.grove.agent.ClusterFixture.await;
import static io.grove.agent.ClusterFixture.unchecked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.agent.image.ImageSettings;
import io.grove.agent.job.ProcessJobRunner;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs in container images, end to end: a real registry on loopback, a real scheduler, a real agent
 * that pulls with skopeo, unpacks with umoci and runs the job under crun in its own cgroup.
 */
class ImageJobsTest {

    @BeforeAll
    static void tools() {
        String missing = TestRegistry.missing();
        Assumptions.assumeTrue(missing == null, missing);
    }

    static ImageSettings images(TestRegistry registry, Path authFile) {
        return new ImageSettings(true, ImageSettings.DEFAULT_CACHE_BYTES, authFile, List.of(registry.host()),
                Duration.ofSeconds(60), null);
    }

    static AgentDaemon agent(ClusterFixture cluster, String name, ImageSettings images) throws Exception {
        AgentDaemon agent = AgentDaemon.start(cluster.agentSettings(name, 2).toBuilder().images(images).build(),
                ProcessJobRunner.system());
        agent.welcomed().get(30, TimeUnit.SECONDS);
        return agent;
    }

    static String submit(ClusterFixture cluster, int jobs, String image, String command, String extra) throws Exception {
        String spec = "pool: prod\ntasks:\n  main: {job_count: " + jobs + ", cpu: 0.5, memory: 64Mi, docker_image: '" + image
                + "'" + (command == null ? "" : ", command: " + cluster.json.writeValueAsString(command)) + extra + "}\n";
        HttpResponse<String> response = cluster.http.send(HttpRequest.newBuilder(cluster.api("/api/v1/operations"))
                .header("X-Grove-User", "alice").POST(HttpRequest.BodyPublishers.ofString(spec)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, response.statusCode(), response.body());
        return cluster.json.readTree(response.body()).get("id").asText();
    }

    static String log(ClusterFixture cluster, JsonNode job, String stream) throws Exception {
        return cluster.get(URI.create("http://" + job.get("node_address").asText() + "/api/v1/jobs/"
                + job.get("id").asText() + "/logs?stream=" + stream)).get("data").asText();
    }

    @Test
    void aJobRunsInItsImageSeesOnlyItsMountsAndItsOutputComesBack(@TempDir Path dir) throws Exception {
        Path secret = Files.createTempDirectory(Path.of("/opt"), "grove-host-only-");
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null);
                ClusterFixture cluster = new ClusterFixture(dir);
                AgentDaemon agent = agent(cluster, "n1", images(registry, null))) {
            String image = registry.push("team/tool", "1.0", TestRegistry.Image.plain());
            String op = submit(cluster, 1, image, "cat /etc/os-release; echo env $IMAGE_VAR $LANG $MODE $HOME; pwd; id -u; "
                    + "ls " + secret + " 2>&1; echo other: $(ls $(dirname $HOME)); touch /etc/x 2>&1; echo tmp > /tmp/t && cat /tmp/t",
                    ", env: {MODE: fast}");
            await("the image job to complete", unchecked(() -> cluster.state(op).equals("completed")));
            JsonNode job = cluster.jobs(op).get(0);
            String out = log(cluster, job, "stdout");
            assertTrue(out.contains("PRETTY_NAME=\"Grove test image\""), out);
            java.util.regex.Matcher env = java.util.regex.Pattern.compile("env from-image image-lang fast (\\S+)\n(\\S+)\n")
                    .matcher(out);
            assertTrue(env.find(), "the image's Env, then the job's: " + out);
            String sandbox = env.group(1);
            assertEquals(sandbox, env.group(2), "its sandbox is its HOME and working directory");
            assertTrue(sandbox.endsWith(job.get("id").asText()) || sandbox.endsWith(job.get("id").asText() + "/sandbox"),
                    sandbox);
            assertTrue(!out.contains("\n0\n"), "not root inside: " + out);
            assertTrue(out.contains("No such file or directory"), "the host's files are not there: " + out);
            String own = Path.of(sandbox).getFileName().toString();
            assertTrue(out.contains("other: " + own + "\n"), "no other job's sandbox is there: " + out);
            assertTrue(out.contains("Read-only file system"), "the image's root is read-only: " + out);
            assertTrue(out.endsWith("tmp\n"), out);
            assertTrue(job.get("image_digest").asText().startsWith("sha256:"), job.toString());
            assertEquals(image, job.get("image").asText());
            assertTrue(job.get("image_pull_ms").asLong() > 0, job.toString());
            JsonNode details = cluster.operation(op);
            assertEquals(image, details.get("images").get("main").asText(), details.toString());
        } finally {
            Files.deleteIfExists(secret);
        }
    }

    static JsonNode firstEnded(ClusterFixture cluster, String op) throws Exception {
        await("a job of " + op + " to end", unchecked(() -> cluster.jobs(op).stream()
                .anyMatch(j -> j.has("finished_at") && !j.get("finished_at").isNull())));
        return cluster.jobs(op).stream().filter(j -> j.has("finished_at") && !j.get("finished_at").isNull())
                .findFirst().orElseThrow();
    }

    @Test
    void theNodesLimitsHoldInsideTheContainer(@TempDir Path dir) throws Exception {
        Path smi = ClusterFixture.fakeNvidiaSmi(dir);
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null);
                ClusterFixture cluster = new ClusterFixture(dir)) {
            String image = registry.push("team/limits", "1", TestRegistry.Image.plain());
            AgentSettings settings = cluster.agentSettings("n1", 4).toBuilder().images(images(registry, null))
                    .jobPolicy(new io.grove.agent.job.JobPolicy(io.grove.agent.job.CpuLimit.QUOTA, 32, 1L << 30, true))
                    .gpus(new io.grove.agent.gpu.GpuSettings(smi, dir.resolve("no-driver"), null, null)).build();
            try (AgentDaemon agent = AgentDaemon.start(settings, ProcessJobRunner.system())) {
                agent.welcomed().get(30, TimeUnit.SECONDS);
                String memory = submit(cluster, 1, image, "dd if=/dev/zero of=/dev/null bs=200M count=1", "");
                String pids = submit(cluster, 1, image, "for i in $(seq 1 100); do sleep 2 & done; wait; exit 3", "");
                String cpu = submit(cluster, 1, image, "dd if=/dev/zero of=/dev/null bs=1 count=2000000", "");
                String gpu = submit(cluster, 1, image, "echo devices: $(ls /dev | grep nvidia); echo visible $CUDA_VISIBLE_DEVICES; "
                        + "cat /dev/nvidia$CUDA_VISIBLE_DEVICES 2>&1; mknod /tmp/other c 195 7 2>&1; "
                        // running until a heartbeat has reported the GPU it holds (a job over at once never is)
                        + "sleep 3; true", ", gpu: 1");
                JsonNode oom = firstEnded(cluster, memory);
                assertEquals("failed", oom.get("state").asText(), oom.toString());
                assertTrue(oom.get("message").asText().contains("memory limit exceeded"), oom.toString());
                JsonNode bomb = firstEnded(cluster, pids);
                assertEquals("failed", bomb.get("state").asText(), bomb.toString());
                assertTrue(bomb.get("message").asText().contains("limit of 32"), bomb.toString());
                await("the CPU job to complete", unchecked(() -> cluster.state(cpu).equals("completed")));
                JsonNode spun = cluster.jobs(cpu).get(0);
                // throttled at all proves the quota holds inside the container (without one nothing is
                // throttled); how often depends on how much CPU a busy machine leaves the job
                assertTrue(spun.get("cpu_throttled_seconds").asDouble() > 0 && spun.get("cpu_throttled_share").asDouble() > 0,
                        "held to half a core: " + spun);
                await("the GPU job to complete", unchecked(() -> cluster.state(gpu).equals("completed")));
                JsonNode gpuJob = cluster.jobs(gpu).get(0);
                String out = log(cluster, gpuJob, "stdout");
                String index = gpuJob.get("gpus").get(0).asText().equals("GPU-0000aaaa") ? "0" : "1";
                assertTrue(out.startsWith("devices: nvidia" + index + "\nvisible " + index + "\n"), "only its own GPU: " + out);
                assertTrue(out.contains("No such device"), "its own GPU may be opened (no driver answers): " + out);
                assertTrue(out.contains("Operation not permitted"), "no device can be made: " + out);
            }
        }
    }

    @Test
    void twoJobsOfOneImagePullAndUnpackItOnceAndLaterJobsFindItCached(@TempDir Path dir) throws Exception {
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null);
                ClusterFixture cluster = new ClusterFixture(dir);
                AgentDaemon agent = agent(cluster, "n1", images(registry, null))) {
            String image = registry.push("team/shared", "2", TestRegistry.Image.plain());
            String op = submit(cluster, 2, image, "cat /etc/os-release", "");
            await("both jobs to complete", unchecked(() -> cluster.state(op).equals("completed")));
            String metrics = agent.metrics().scrape();
            assertTrue(metrics.contains("grove_agent_image_pulls_total 1.0"), metrics);
            assertTrue(metrics.contains("grove_agent_image_cache_images 1.0"), metrics);
            try (var entries = Files.list(dir.resolve("n1/images"))) {
                assertEquals(1, entries.filter(p -> p.getFileName().toString().startsWith("sha256-")).count());
            }
            String again = submit(cluster, 1, image, "true", "");
            await("the later job to complete", unchecked(() -> cluster.state(again).equals("completed")));
            JsonNode cached = cluster.jobs(again).get(0);
            assertEquals(0, cached.get("image_pull_ms").asLong(), "found in the cache: " + cached);
            assertEquals(cluster.jobs(op).get(0).get("image_digest"), cached.get("image_digest"));
            assertTrue(agent.metrics().scrape().contains("grove_agent_image_pulls_total 1.0"), "no second pull");
        }
    }

    @Test
    void anUnknownImageAndARefusedLoginFailTheJobWithWhatHappened(@TempDir Path dir) throws Exception {
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), "grove", "s3cret");
                ClusterFixture cluster = new ClusterFixture(dir)) {
            String image = registry.push("team/private", "1", TestRegistry.Image.plain());
            Path wrong = registry.authFile(dir.resolve("wrong.json"), "grove", "guess");
            try (AgentDaemon agent = agent(cluster, "n1", images(registry, wrong))) {
                JsonNode refused = firstEnded(cluster, submit(cluster, 1, image, "true", ""));
                assertEquals("failed", refused.get("state").asText(), refused.toString());
                assertTrue(refused.get("message").asText().contains("the registry refused the node's credentials"),
                        refused.toString());
            }
            Path right = registry.authFile(dir.resolve("right.json"), "grove", "s3cret");
            try (AgentDaemon agent = agent(cluster, "n2", images(registry, right))) {
                String unknown = registry.host() + "/team/nothing:1";
                JsonNode missing = firstEnded(cluster, submit(cluster, 1, unknown, "true", ""));
                assertTrue(missing.get("message").asText().contains("no such image in the registry"), missing.toString());
                // remembered for a while: the next job of that reference fails at once, without a pull
                JsonNode again = firstEnded(cluster, submit(cluster, 1, unknown, "true", ""));
                assertTrue(again.get("message").asText().contains("not tried again"), again.toString());
                String ok = submit(cluster, 1, image, "cat /etc/os-release", "");
                await("the job with the node's right login to complete", unchecked(() -> cluster.state(ok).equals("completed")));
            }
        }
    }

    @Test
    void anImageWithoutAShellAnEntryPointOrOfAnotherArchitectureSaysSo(@TempDir Path dir) throws Exception {
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null);
                ClusterFixture cluster = new ClusterFixture(dir);
                AgentDaemon agent = agent(cluster, "n1", images(registry, null))) {
            TestRegistry.Image plain = TestRegistry.Image.plain();
            String arm = registry.push("team/arm", "1", new TestRegistry.Image(plain.files(), plain.env(), List.of(),
                    List.of("/bin/sh"), "arm64", 0, true));
            String noShell = registry.push("team/noshell", "1", new TestRegistry.Image(plain.files(), plain.env(),
                    List.of("/bin/echo"), List.of("from", "entrypoint"), null, 0, false));
            JsonNode foreign = firstEnded(cluster, submit(cluster, 1, arm, "true", ""));
            assertTrue(foreign.get("message").asText().contains("is for linux/arm64 and cannot run on this node"),
                    foreign.toString());
            JsonNode shell = firstEnded(cluster, submit(cluster, 1, noShell, "echo hi", ""));
            assertTrue(shell.get("message").asText().contains("has no /bin/sh"), shell.toString());
            String own = submit(cluster, 1, noShell, null, "");
            await("the image's own entry point to run", unchecked(() -> cluster.state(own).equals("completed")));
            assertEquals("from entrypoint\n", log(cluster, cluster.jobs(own).get(0), "stdout"));
            String empty = registry.push("team/empty", "1", new TestRegistry.Image(plain.files(), plain.env(), List.of(),
                    List.of(), null, 0, true));
            JsonNode nothing = firstEnded(cluster, submit(cluster, 1, empty, null, ""));
            assertTrue(nothing.get("message").asText().contains("sets no Entrypoint or Cmd"), nothing.toString());
        }
    }

    @Test
    void anAgentWithoutAnOciRuntimeGetsNoImageJobs(@TempDir Path dir) throws Exception {
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null);
                ClusterFixture cluster = new ClusterFixture(dir)) {
            String image = registry.push("team/tool", "1", TestRegistry.Image.plain());
            ImageSettings noCrun = new ImageSettings(true, ImageSettings.DEFAULT_CACHE_BYTES, null, List.of(registry.host()),
                    Duration.ofSeconds(60), Path.of("/nonexistent/crun"));
            try (AgentDaemon plain = agent(cluster, "plain", noCrun)) {
                String op = submit(cluster, 2, image, "true", "");
                String bare = cluster.submit(1, 0.5, "echo bare");
                await("the bare job to complete on the node without a runtime",
                        unchecked(() -> cluster.state(bare).equals("completed")));
                await("the explanation to name the missing runtime", unchecked(() -> cluster.get("/api/v1/operations/" + op
                        + "/explain").toString().contains("no_image_node")));
                String why = cluster.get("/api/v1/operations/" + op + "/explain").toString();
                assertTrue(why.contains("install crun"), why);
                assertEquals(0, cluster.jobs(op).size(), "no image job went to the node without a runtime");
                try (AgentDaemon oci = agent(cluster, "oci", images(registry, null))) {
                    await("the image jobs to complete", unchecked(() -> cluster.state(op).equals("completed")));
                    assertTrue(cluster.jobs(op).stream().allMatch(j -> j.get("node").asText().equals("oci")),
                            cluster.jobs(op).toString());
                }
            }
        }
    }

    @Test
    void aRunningImageJobIsStoppedWithItsContainer(@TempDir Path dir) throws Exception {
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null);
                ClusterFixture cluster = new ClusterFixture(dir);
                AgentDaemon agent = agent(cluster, "n1", images(registry, null))) {
            String image = registry.push("team/sleepy", "1", TestRegistry.Image.plain());
            String op = submit(cluster, 1, image, "echo started; sleep 300", "");
            await("the job to run", unchecked(() -> !cluster.jobs(op).isEmpty()
                    && log(cluster, cluster.jobs(op).get(0), "stdout").contains("started")));
            await("the scheduler to hear that it runs", unchecked(() -> cluster.jobs(op).get(0).get("state").asText()
                    .equals("running")));
            HttpResponse<String> abort = cluster.http.send(HttpRequest.newBuilder(cluster.api("/api/v1/operations/" + op
                    + "/abort")).header("X-Grove-User", "alice").POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, abort.statusCode(), abort.body());
            await("the job to be aborted", unchecked(() -> cluster.jobs(op).get(0).get("state").asText().equals("aborted")));
            await("its container to be gone", unchecked(() -> {
                try (var left = Files.list(dir.resolve("n1/runtime"))) {
                    return left.findAny().isEmpty();
                }
            }));
        }
    }

    /**
     * The Debian root filesystem the end-to-end tests make ({@code deploy/image/build-base.sh},
     * imported into Docker as {@code grove-base:bookworm}), pushed with skopeo and run as a job.
     */
    @Test
    void aJobRunsInTheDebianImageTheEndToEndTestsBuild(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/var/run/docker.sock")), "no Docker engine");
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null);
                ClusterFixture cluster = new ClusterFixture(dir);
                AgentDaemon agent = agent(cluster, "n1", images(registry, null))) {
            String image = registry.host() + "/grove/debian:bookworm";
            try {
                TestRegistry.run(List.of(TestRegistry.SKOPEO.toString(), "copy", "--insecure-policy", "--quiet",
                        "--dest-tls-verify=false", "docker-daemon:grove-base:bookworm", "docker://" + image));
            } catch (java.io.IOException e) {
                Assumptions.abort("grove-base:bookworm is not in Docker (deploy/image/build-base.sh): " + e.getMessage());
            }
            String op = submit(cluster, 1, image, "cat /etc/os-release; echo lang=$LANG", "");
            JsonNode job = firstEnded(cluster, op);
            assertEquals("completed", job.get("state").asText(), job.toString());
            String out = log(cluster, job, "stdout");
            assertTrue(out.contains("PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\""), out);
            assertTrue(out.contains("lang=C.UTF-8"), "the image's Env: " + out);
        }
    }

    @Test
    void anInterruptedImageJobGetsSigtermAndItsGrace(@TempDir Path dir) throws Exception {
        io.grove.agent.job.JobCgroups cgroups = io.grove.agent.job.JobCgroups.detect("grove-image-test");
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null)) {
            String image = registry.push("team/graceful", "1", TestRegistry.Image.plain());
            io.grove.agent.image.NodeImages images = io.grove.agent.image.NodeImages.start(images(registry, null),
                    dir.resolve("work"), true);
            io.grove.agent.job.JobUsers users = io.grove.agent.job.JobUsers.forAgent(List.of(),
                    io.grove.agent.job.JobUsers.DEFAULT_UIDS, true, Path.of("/etc/passwd"));
            try (AgentFixture node = new AgentFixture(dir.resolve("work"), users, cgroups,
                    io.grove.agent.job.JobPolicy.DEFAULTS, io.grove.agent.gpu.NodeGpus.none(),
                    io.grove.agent.gpu.GpuCheck.none(), images)) {
                node.start(new io.grove.protocol.HeartbeatReply.JobToStart("op-1-1", "op-1", "main", 0,
                        "trap 'echo got TERM; exit 0' TERM; echo ready; while true; do sleep 0.1; done", java.util.Map.of(),
                        new io.grove.core.resource.Resources(1, 1, 0, 64L << 20, 0), null, null, null, image));
                Path stdout = dir.resolve("work/jobs/op-1-1/stdout");
                await("the job to run", unchecked(() -> Files.readString(stdout).contains("ready")));
                long interruptedAt = System.currentTimeMillis();
                node.exchange(new io.grove.protocol.HeartbeatReply(List.of(), List.of(), List.of(
                        new io.grove.protocol.HeartbeatReply.JobToInterrupt("op-1-1", "preemption", null, null, 20_000,
                                "for a starving operation")), 1000));
                io.grove.protocol.FinishedJob result = node.resultOf("op-1-1");
                assertEquals(io.grove.protocol.FinishedJob.Outcome.ABORTED, result.outcome(), result.toString());
                assertTrue(result.error().startsWith("interrupted by the scheduler (preemption)"), result.error());
                assertTrue(Files.readString(stdout).contains("got TERM"), "its trap ran: " + Files.readString(stdout));
                assertTrue(result.finishedAtMs() - interruptedAt < 10_000, "it ended on its own, long before the SIGKILL "
                        + "at the end of its 20 s grace: " + result);
                // the registry is a process of this test's: gone before the fixture waits for what is left
                registry.close();
            } finally {
                images.close();
            }
        } finally {
            cgroups.removeAll();
        }
    }
}
