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
}
