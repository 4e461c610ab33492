package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.Welcome;
import io.grove.testing.Await;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduler answers a heartbeat before the ends it reports are durable; killed right after, it
 * comes back with the job running. The agent sends lately acknowledged results again in its next
 * handshake, and the scheduler ends the revived job as it ended: completed once, not taken as lost
 * and run again.
 */
class ResentResultTest {

    @Test
    void aResultSentAgainInTheHandshakeEndsTheRevivedJobAsItEnded(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, AccountingTest.POOLS);
        Path data = dir.resolve("data");
        DaemonProcess daemon = DaemonProcess.start(config, data);
        DaemonFixture users = new DaemonFixture().at(daemon.httpPort, daemon.nodePort);
        DaemonFixture.FakeNode node = users.node("n1", 4);
        try {
            assertInstanceOf(Welcome.class, node.handshake());
            DaemonFixture.Reply submitted = users.sendAs("bob", "POST", "/api/v1/operations",
                    "pool: open\ntasks:\n  main: {job_count: 1, command: x, cpu: 1, memory: 1Gi}\n");
            String op = submitted.body().get("id").asText();
            // the job starts at a heartbeat once the operation has a fair share (the next update's)
            DaemonFixture.FakeNode first = node;
            Await.untilChecked("its job to start", () -> {
                first.heartbeat();
                return !first.running.isEmpty();
            });
            String job = List.copyOf(node.running.keySet()).get(0);
            // a submission is answered once durable, with what was journaled before it: the start is durable
            assertEquals(201, users.sendAs("bob", "POST", "/api/v1/operations",
                    "pool: open\ntasks:\n  main: {job_count: 1, command: y, cpu: 4, memory: 1Gi}\n").status());
            // the job ends and its end is acknowledged, but the scheduler dies before writing it
            daemon.kill();
            node.close();
            node.complete(job);
            daemon = DaemonProcess.start(config, data);
            users.at(daemon.httpPort, daemon.nodePort);
            DaemonFixture.FakeNode back = users.node("n1", 4);
            back.finished.addAll(node.finished);
            assertInstanceOf(Welcome.class, back.handshake());
            node = back;
            Await.untilChecked("the revived job to end", () -> users.sendAs("carol", "GET", "/api/v1/operations/" + op, null)
                    .body().get("state").asText().equals("completed"));
            JsonNode progress = users.sendAs("carol", "GET", "/api/v1/operations/" + op, null).body().get("progress");
            assertEquals(1, progress.get("completed").asInt(), progress.toString());
            assertEquals(0, progress.get("aborted").asInt(), "not taken as lost: " + progress);
            Await.untilChecked("its record", () -> users.sendAs("carol", "GET", "/api/v1/jobs?operation_id=" + op, null)
                    .body().size() == 1);
            JsonNode record = users.sendAs("carol", "GET", "/api/v1/jobs?operation_id=" + op, null).body().get(0);
            assertEquals("completed", record.get("state").asText(), record.toString());
        } finally {
            node.close();
            users.close();
            daemon.kill();
        }
    }
}
