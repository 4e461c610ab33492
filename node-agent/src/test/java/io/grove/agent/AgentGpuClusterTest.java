package io.grove.agent;

import static io.grove.agent.ClusterFixture.await;
import static io.grove.agent.ClusterFixture.unchecked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.agent.gpu.GpuSettings;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.agent.job.WorkDir;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real agent daemon finds its GPUs with nvidia-smi and gives a scheduler's GPU job specific devices. */
class AgentGpuClusterTest {

    @Test
    void gpusFoundByNvidiaSmiAreOfferedTaggedAndGivenToJobsOneByOne(@TempDir Path dir) throws Exception {
        Path smi = ClusterFixture.fakeNvidiaSmi(dir);
        try (ClusterFixture cluster = new ClusterFixture(dir);
                AgentDaemon agent = AgentDaemon.start(cluster.agentSettings("n1", 2).toBuilder()
                        .gpus(new GpuSettings(smi, dir.resolve("no-driver"), null, null)).build(), ProcessJobRunner.system())) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            JsonNode node = cluster.get("/api/v1/nodes").get(0);
            assertEquals(2, node.get("resource_limits").get("gpu").asInt(), node.toString());
            assertTrue(node.get("tags").toString().contains("gpu_model:nvidia-a100-sxm4-80gb"), node.toString());
            String spec = "pool: prod\ntasks:\n  train: {job_count: 2, cpu: 0.5, gpu: 1, memory: 64Mi, "
                    + "command: 'echo $CUDA_VISIBLE_DEVICES $NVIDIA_VISIBLE_DEVICES; sleep 1'}\n";
            HttpResponse<String> submitted = cluster.http.send(HttpRequest.newBuilder(cluster.api("/api/v1/operations"))
                    .header("X-Grove-User", "alice").POST(HttpRequest.BodyPublishers.ofString(spec)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, submitted.statusCode(), submitted.body());
            String op = cluster.json.readTree(submitted.body()).get("id").asText();
            await("both jobs to hold their devices", unchecked(() -> cluster.jobs(op).size() == 2
                    && cluster.jobs(op).stream().allMatch(j -> j.has("gpus"))));
            JsonNode first = cluster.jobs(op).get(0);
            JsonNode second = cluster.jobs(op).get(1);
            assertTrue(!first.get("gpus").equals(second.get("gpus")), "disjoint devices: " + first + " " + second);
            await("the operation to complete", unchecked(() -> cluster.state(op).equals("completed")));
            WorkDir work = new WorkDir(dir.resolve("n1"), io.grove.agent.job.JobUsers.processIsRoot());
            // read once archived: a finished job's logs move from its directory to the archive
            java.nio.file.Path archived = dir.resolve("n1").resolve("logs").resolve(first.get("id").asText()).resolve("stdout");
            await("its log archived", () -> Files.exists(archived) && work.log(first.get("id").asText(), "stdout")
                    .orElseThrow().equals(archived));
            String out = Files.readString(archived);
            String uuid = first.get("gpus").get(0).asText();
            assertEquals((uuid.equals("GPU-0000aaaa") ? "0 " : "1 ") + uuid + "\n", out);
        }
    }
}
