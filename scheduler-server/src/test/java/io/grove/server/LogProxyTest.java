package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler's log proxy against a hostile node: it reads from the address the node's
 * connection came from (not the host the node names), and passes on a job log and nothing else.
 */
class LogProxyTest {

    /** What the fake agent answers, and the requests it got. */
    final AtomicReference<Integer> status = new AtomicReference<>(200);
    final AtomicReference<String> body = new AtomicReference<>("");
    final List<String> asked = new ArrayList<>();

    HttpServer fakeAgent() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            synchronized (asked) {
                asked.add(exchange.getRequestURI().toString());
            }
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    @Test
    void logsAreReadFromTheNodesConnectionAndOnlyAJobLogIsPassedOn(@TempDir Path dir) throws Exception {
        HttpServer agent = fakeAgent();
        try (SchedulerDaemon daemon = BoundedWorkTest.start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            // it names a host elsewhere; its connection comes from 127.0.0.1, where its agent is
            node.address = "10.255.255.1:" + agent.getAddress().getPort();
            node.handshake();
            String op = users.submit("prod", 1);
            daemon.updateFairShare();
            assertEquals(1, node.heartbeat().jobsToStart().size());
            String job = node.running.keySet().iterator().next();
            String logs = "/api/v1/operations/" + op + "/jobs/" + job + "/logs";

            body.set("{\"job_id\": \"" + job + "\", \"stream\": \"stdout\", \"offset\": 0, \"next_offset\": 3, "
                    + "\"size\": 3, \"data\": \"hi\\n\"}");
            DaemonFixture.Reply log = users.get(logs);
            assertEquals(200, log.status(), log.toString());
            assertEquals("hi\n", log.body().get("data").asText());
            synchronized (asked) {
                assertEquals(List.of("/api/v1/jobs/" + job + "/logs?stream=stdout&offset=0"), asked,
                        "asked at the node's connection address, at the path the scheduler builds");
            }

            // sent to its node, not started there yet: the agent has no log, the running job has no output so far
            status.set(404);
            body.set("{\"code\": \"NOT_FOUND\"}");
            DaemonFixture.Reply early = users.get(logs);
            assertEquals(200, early.status(), early.toString());
            assertEquals("", early.body().get("data").asText());
            assertEquals(0, early.body().get("size").asLong());
            status.set(200);

            body.set("{\"admin_password\": \"hunter2\"}");
            DaemonFixture.Reply other = users.get(logs);
            assertEquals(502, other.status(), other.toString());
            assertFalse(other.toString().contains("hunter2"), "an answer that is no job log is not passed on");

            status.set(500);
            body.set("<html>internal admin page: hunter2</html>");
            DaemonFixture.Reply error = users.get(logs);
            assertEquals(502, error.status(), error.toString());
            assertEquals("AGENT_ERROR", error.body().get("code").asText());
            assertTrue(error.body().get("message").asText().contains("answered HTTP 500"), error.toString());
            assertFalse(error.toString().contains("hunter2"), "no body of the agent's is echoed");
        } finally {
            agent.stop(0);
        }
    }
}
