package io.grove.agent;

import static io.grove.agent.ClusterFixture.await;
import static io.grove.agent.ClusterFixture.unchecked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.Trees;
import io.grove.agent.job.WorkDir;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent as its own process, killed with SIGKILL under a running job and started again. */
class AgentRestartTest {

    @Test
    void aKilledAgentLeavesNoOrphanBehindOnceItIsBack(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir)) {
            Path work = dir.resolve("agent");
            Process first = startAgent(cluster, work);
            Path marker = ClusterFixture.openFolder().resolve("first-attempt");
            String op = cluster.submit(1, 1, "if [ -e " + marker + " ]; then echo second; else touch " + marker
                    + "; sleep 300; fi");
            await("the job to run", unchecked(() -> cluster.operation(op).get("progress").get("running").asInt() == 1
                    && Files.exists(marker)));
            String jobId = cluster.jobs(op).get(0).get("id").asText();
            Path record = work.resolve("jobs").resolve(jobId).resolve("job.json");
            await("the job record", () -> Files.exists(record));
            long pid = cluster.json.readTree(record.toFile()).get("pid").asLong();

            first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            ProcessHandle orphan = ProcessHandle.of(pid).orElseThrow();
            assertTrue(orphan.isAlive(), "the job outlives the agent (its own session)");

            Process second = startAgent(cluster, work);
            try {
                orphan.onExit().get(30, TimeUnit.SECONDS);
                await("the operation to complete on a new attempt", unchecked(() -> cluster.state(op).equals("completed")));
                JsonNode progress = cluster.operation(op).get("progress");
                assertEquals(1, progress.get("aborted").asInt(), "the killed attempt is reported aborted");
                assertEquals(1, progress.get("completed").asInt());
                JsonNode killed = cluster.jobs(op).stream().filter(j -> j.get("id").asText().equals(jobId)).findFirst()
                        .orElseThrow();
                assertTrue(killed.get("message").asText().contains("the node agent restarted"), killed.toString());
                assertFalse(orphan.isAlive());
            } finally {
                second.destroy();
                second.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * An agent's work directory removed while the agent is down (a test's temporary folder, a
     * decommissioned agent) leaves leases of job uids no run of it can come back for. The next agent
     * to start on the machine frees them: every process of the uid killed, the job's sandbox (kept
     * apart under /var/lib/grove/sandboxes) removed, then the lease cleared.
     */
    @Test
    void theNextAgentFreesTheUidsOfAnAgentGoneWithItsWorkDirectory(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "job uids need root");
        try (ClusterFixture cluster = new ClusterFixture(dir)) {
            Path work = dir.resolve("gone-agent");
            Process first = startAgent(cluster, work, "n1");
            String op = cluster.submit(1, 1, "echo left > left-behind; sleep 300");
            await("the job to run", unchecked(() -> cluster.operation(op).get("progress").get("running").asInt() == 1));
            String jobId = cluster.jobs(op).get(0).get("id").asText();
            Path record = work.resolve("jobs").resolve(jobId).resolve("job.json");
            await("the job record", () -> Files.exists(record));
            long pid = cluster.json.readTree(record.toFile()).get("pid").asLong();
            Path sandbox = WorkDir.separateSandboxes(work.toAbsolutePath().normalize().toString()).resolve(jobId);
            await("the job's file in its sandbox", () -> Files.exists(sandbox.resolve("left-behind")));
            int uid = (Integer) Files.getAttribute(sandbox.resolve("left-behind"), "unix:uid");
            Path lease = JobUsers.LEASES.resolve(Integer.toString(uid));
            assertTrue(Files.readString(lease).contains(jobId), "the uid is leased to the job");

            first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            ProcessHandle orphan = ProcessHandle.of(pid).orElseThrow();
            assertTrue(orphan.isAlive(), "the job outlives the agent");
            Trees.delete(work);

            Process second = startAgent(cluster, dir.resolve("next-agent"), "n2");
            try {
                orphan.onExit().get(30, TimeUnit.SECONDS);
                assertFalse(Files.exists(sandbox, LinkOption.NOFOLLOW_LINKS), "the orphan's sandbox is removed");
                assertEquals("", Files.readString(lease), "the uid is free again");
            } finally {
                second.destroy();
                second.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static Process startAgent(ClusterFixture cluster, Path work) throws Exception {
        return startAgent(cluster, work, "n1");
    }

    private static Process startAgent(ClusterFixture cluster, Path work, String nodeId) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), AgentMain.class.getName(),
                "--scheduler", "127.0.0.1:" + cluster.nodePort, "--work-dir", work.toString(), "--node-id", nodeId,
                "--cpu", "2", "--memory", Long.toString(4L << 30), "--http-port", "0", "--broker-port", "-1")
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            if (line.startsWith("ready ")) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "agent-output");
                drain.setDaemon(true);
                drain.start();
                return process;
            }
        }
        throw new AssertionError("the agent did not start:\n" + seen);
    }
}
