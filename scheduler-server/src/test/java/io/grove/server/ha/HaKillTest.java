package io.grove.server.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.testing.Await;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schedulers as processes of their own: the leader is killed with SIGKILL (its disk is never read
 * again) and the standby takes over within the session timeout with every acknowledged operation.
 */
public class HaKillTest {

    final HaProcesses group = new HaProcesses();

    @AfterEach
    void stop() {
        group.close();
    }

    @Test
    void theStandbyTakesOverFromAKilledLeaderWithEveryAcknowledgedOperation(@TempDir Path dir) throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            Path config = Files.writeString(dir.resolve("pools.yaml"), HaSchedulerTest.POOLS);
            HaProcesses.Scheduler a = group.start(config, dir.resolve("a"), zookeeper.getConnectString());
            Await.until("a leads", () -> group.role(a.http()).equals("leader"));
            HaProcesses.Scheduler b = group.start(config, dir.resolve("b"), zookeeper.getConnectString());
            Await.until("b is a standby", () -> group.role(b.http()).equals("standby"));

            List<String> acknowledged = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> created = group.http.send(group.submit(a.http()), HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());
                acknowledged.add(group.json.readTree(created.body()).get("id").asText());
            }

            long killed = System.nanoTime();
            a.process().destroyForcibly();
            Await.until("b leads", () -> group.role(b.http()).equals("leader"));
            long takeover = System.nanoTime() - killed;
            System.out.printf("takeover after SIGKILL of the leader: %d ms (session timeout 3000 ms)%n",
                    takeover / 1_000_000);
            assertTrue(takeover < TimeUnit.SECONDS.toNanos(10), "within the session timeout and a little");

            List<String> revived = new ArrayList<>();
            group.get(b.http(), "/api/v1/operations").forEach(op -> revived.add(op.get("id").asText()));
            assertEquals(acknowledged, revived, "every acknowledged submission, in order");
            assertEquals(2, group.get(b.http(), "/healthz").get("epoch").asLong());
        }
    }
}
