package io.grove.agent;

import static io.grove.agent.ClusterFixture.await;
import static io.grove.agent.ClusterFixture.unchecked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.broker.BrokerClient;
import io.grove.protocol.broker.BrokerMessage;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Agents talking to a real scheduler daemon on loopback. */
class AgentClusterTest {

    @Test
    void jobsRunToTheEndAndTheApiSaysWhereTheirLogsAre(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 2)) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            String op = cluster.submit(3, 1, "echo hello $GROVE_JOB_INDEX");
            await("the operation to complete", unchecked(() -> cluster.state(op).equals("completed")));
            JsonNode job = cluster.jobs(op).get(0);
            assertEquals("n1", job.get("node").asText());
            String address = job.get("node_address").asText();
            assertEquals("127.0.0.1:" + agent.httpPort(), address);
            JsonNode log = cluster.get(URI.create("http://" + address + "/api/v1/jobs/" + job.get("id").asText()
                    + "/logs?stream=stdout"));
            assertEquals("hello " + job.get("index").asInt() + "\n", log.get("data").asText());
            JsonNode node = cluster.get("/api/v1/nodes").get(0);
            assertEquals(address, node.get("address").asText());
            assertEquals(2.0, node.get("resource_limits").get("cpu").asDouble(), 1e-9);
            assertEquals((4L << 30) - (64L << 20), node.get("resource_limits").get("memory").asLong(),
                    "64 MiB kept for the broker");
        }
    }

    @Test
    void aFloodOfHalfSentRequestsOnTheAgentsPortDoesNotStopItsJobs(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 2)) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            java.util.List<java.net.Socket> flood = new java.util.ArrayList<>();
            long descriptorsBefore = openDescriptors();
            try {
                for (int i = 0; i < 2_000; i++) {
                    java.net.Socket socket = new java.net.Socket("127.0.0.1", agent.httpPort());
                    socket.getOutputStream().write("GET /api/v1/node HTTP/1.1\r\nHost: x\r\n".getBytes());
                    flood.add(socket);
                }
                // the test's own 2,000 client sockets are in this process too: the agent's side stays capped
                await("the refused connections to be closed", () -> openDescriptors() - descriptorsBefore < 2_000 + 300);
                String op = cluster.submit(4, 0.5, "echo ran $GROVE_JOB_INDEX");
                await("the jobs to run and complete under the flood", unchecked(() -> cluster.state(op).equals("completed")));
                assertEquals(4, cluster.operation(op).get("progress").get("completed").asInt());
            } finally {
                for (java.net.Socket socket : flood) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aClientThatPipelinesMetricsRequestsAndNeverReadsLeavesTheNodeOnline(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 2);
                java.net.Socket greedy = new java.net.Socket("127.0.0.1", agent.httpPort())) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            byte[] requests = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".repeat(20_000).getBytes();
            Thread writer = new Thread(() -> {
                try {
                    greedy.getOutputStream().write(requests);
                } catch (java.io.IOException closed) {
                    // the agent closed it, or the test did
                }
            });
            writer.setDaemon(true);
            writer.start();
            // the node keeps heartbeating and running jobs, and the agent's port answers others
            String op = cluster.submit(4, 0.5, "echo ran $GROVE_JOB_INDEX");
            await("the jobs to run and complete", unchecked(() -> cluster.state(op).equals("completed")));
            assertEquals("online", cluster.get("/api/v1/nodes").get(0).get("state").asText());
            JsonNode node = cluster.get(URI.create("http://127.0.0.1:" + agent.httpPort() + "/api/v1/node"));
            assertEquals("n1", node.get("node_id").asText());
            assertTrue(node.get("connected").asBoolean());
        }
    }

    static long openDescriptors() {
        try (java.util.stream.Stream<java.nio.file.Path> fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theSchedulerRestartsUnderARunningJob(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 1)) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            Path flag = ClusterFixture.openFolder().resolve("go");
            String op = cluster.submit(1, 1, "while [ ! -e " + flag + " ]; do sleep 0.05; done; echo finished");
            await("the job to run", unchecked(() -> cluster.operation(op).get("progress").get("running").asInt() == 1));
            ClusterFixture.awaitStarted(agent, 1);
            int node = cluster.nodePort;
            int api = cluster.httpPort;
            cluster.scheduler.close();
            await("the agent to notice", () -> !agent.welcomed().isDone());
            java.nio.file.Files.writeString(flag, "");   // the job ends while the scheduler is down
            cluster.startScheduler(node, api);
            agent.welcomed().get(30, TimeUnit.SECONDS);
            await("the result to reach the new scheduler", unchecked(() -> cluster.state(op).equals("completed")));
            JsonNode progress = cluster.operation(op).get("progress");
            assertEquals(1, progress.get("completed").asInt());
            assertEquals(0, progress.get("aborted").asInt(), "the job was not run again");
        }
    }

    @Test
    void brokerTasksAndSchedulerJobsNeverDoubleBookTheNode(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 2)) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            LinkedBlockingQueue<BrokerMessage> pushed = new LinkedBlockingQueue<>();
            try (BrokerClient client = BrokerClient.connect("127.0.0.1", agent.brokerPort(), agent.brokerTokens().client(), pushed::add)) {
                BrokerMessage allocated = client.submit(new BrokerMessage.Submit(1, "big", new BrokerMessage.Amounts(1.5, null),
                        "transaction", 0, "c1")).get(30, TimeUnit.SECONDS);
                assertEquals(new BrokerMessage.Allocated(1, "c1"), allocated);
                await("the scheduler to see less", unchecked(() ->
                        cluster.get("/api/v1/nodes").get(0).get("resource_limits").get("cpu").asDouble() == 0.5));
                String op = cluster.submit(1, 1, "echo ran");
                BrokerMessage refused = client.submit(new BrokerMessage.Submit(1, "again", null, "transaction", 0, "c2"))
                        .get(30, TimeUnit.SECONDS);
                assertEquals("already_exists", ((BrokerMessage.TaskError) refused).code());
                assertEquals(0, cluster.operation(op).get("progress").get("running").asInt()
                        + cluster.operation(op).get("progress").get("completed").asInt(), "1 CPU does not fit in 0.5");
                client.send(new BrokerMessage.Finish(1));
                await("the job to run once the broker let go",
                        unchecked(() -> cluster.state(op).equals("completed")));

                client.submit(new BrokerMessage.Submit(2, "unknown kind", new BrokerMessage.Amounts(0.1, 1024L), "no_such_type",
                        0, null)).get(30, TimeUnit.SECONDS);
                JsonNode status = cluster.get(URI.create("http://127.0.0.1:" + agent.httpPort() + "/api/v1/broker"));
                assertEquals(1, status.get("missing_task_types").asInt());
                await("the sensor", () -> agent.metrics().scrape().contains("grove_agent_broker_missing_task_type_total 1.0"));
                // Prometheus' names, with units and help; the process as every JVM service exports it
                String scraped = agent.metrics().scrape();
                for (String family : List.of("grove_agent_broker_enqueued_tasks", "grove_agent_broker_running_tasks",
                        "grove_agent_broker_cpu_cores", "grove_agent_broker_memory_bytes",
                        "grove_agent_broker_finished_tasks_total", "grove_agent_broker_queue_wait_seconds",
                        "grove_agent_broker_missing_task_type_total", "jvm_memory_used_bytes", "process_cpu_usage",
                        "process_files_open_files")) {
                    assertTrue(scraped.contains("# HELP " + family + " "), family + " in " + scraped);
                }
                assertFalse(scraped.lines().anyMatch(line -> line.matches("(# \\w+ )?broker_.*")), scraped);
            }
            await("a closed client's tasks to go", unchecked(() -> cluster.get(
                    URI.create("http://127.0.0.1:" + agent.httpPort() + "/api/v1/broker")).get("tasks").isEmpty()));
        }
    }

    @Test
    void configureThroughTheLoopbackApi(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 1);
                BrokerClient client = BrokerClient.connect("127.0.0.1", agent.brokerPort(), agent.brokerTokens().admin(), m -> { })) {
            BrokerMessage.ConfigureResult refused = client.configure(new BrokerMessage.Configure(null,
                    List.of(new BrokerMessage.Queue("q", 1, null)), List.of())).get(30, TimeUnit.SECONDS);
            assertEquals(false, refused.success());
            assertTrue(refused.message().contains("task type 'unknown' is required"), refused.message());
            BrokerMessage.ConfigureResult applied = client.configure(new BrokerMessage.Configure(
                    new BrokerMessage.Amounts(4.0, null), List.of(new BrokerMessage.Queue("q", 1, null)),
                    List.of(new BrokerMessage.TaskType("unknown", "q", 1000),
                            new BrokerMessage.TaskType("grove_sandbox_prepare", "q", 10),
                            new BrokerMessage.TaskType("grove_log_archive", "q", 10),
                            new BrokerMessage.TaskType("grove_sandbox_cleanup", "q", 10)))).get(30, TimeUnit.SECONDS);
            assertTrue(applied.success(), applied.message());
            String op = cluster.submit(1, 1, "true");
            await("jobs to run under the new configuration", unchecked(() -> cluster.state(op).equals("completed")));
        }
    }
}
