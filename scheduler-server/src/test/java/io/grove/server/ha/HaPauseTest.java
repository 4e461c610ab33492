package io.grove.server.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.core.resource.Resources;
import io.grove.protocol.ErrorCode;
import io.grove.protocol.ErrorReply;
import io.grove.protocol.Handshake;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Message;
import io.grove.protocol.NodeClient;
import io.grove.protocol.NodeHeartbeat;
import io.grove.testing.Await;
import io.grove.server.coord.ZkLayout;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader really paused ({@code SIGSTOP}) for longer than its session while a node, a client and
 * a health check wait in its sockets; the standby takes over; after {@code SIGCONT} the old leader
 * answers none of them as the leader: it starts no job, acknowledges no submission, says it is not
 * the leader, and writes nothing more to ZooKeeper.
 */
class HaPauseTest {

    final HaProcesses group = new HaProcesses();
    final EventLoopGroup loops = new NioEventLoopGroup(1);

    @AfterEach
    void stop() {
        group.close();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void aLeaderPausedPastItsSessionNeitherWritesNorStartsAJobAfterItResumes(@TempDir Path dir) throws Exception {
        try (TestingServer zookeeper = new TestingServer(true);
                CuratorFramework zk = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryNTimes(3, 100))) {
            zk.start();
            Path config = Files.writeString(dir.resolve("pools.yaml"), HaSchedulerTest.POOLS);
            HaProcesses.Scheduler a = group.start(config, dir.resolve("a"), zookeeper.getConnectString());
            Await.until("a leads", () -> group.role(a.http()).equals("leader"));
            HaProcesses.Scheduler b = group.start(config, dir.resolve("b"), zookeeper.getConnectString());
            Await.until("b is a standby", () -> group.role(b.http()).equals("standby"));
            // work for a node: an operation nobody runs yet
            HttpResponse<String> pending = group.http.send(group.submit(a.http()), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, pending.statusCode(), pending.body());

            HaProcesses.signal(a, "STOP");
            long stopped = System.nanoTime();
            // while it is stopped: a node shakes hands and heartbeats with free resources, a client
            // submits, a health check asks; the kernel takes the connections and holds the bytes
            NodeClient node = NodeClient.connect(loops, "127.0.0.1", a.nodes(), Duration.ofSeconds(5),
                    Message.DEFAULT_MAX_FRAME_BYTES);
            Resources free = new Resources(8, 8, 0, 32e9, 0);
            CompletableFuture<Message> welcome = node.request(new Handshake(Message.VERSION, "paused-node", "", List.of(),
                    free, List.of(), null), Duration.ofSeconds(60));
            CompletableFuture<Message> heartbeat = node.request(new NodeHeartbeat("paused-node", free, null, List.of(),
                    List.of()), Duration.ofSeconds(60));
            CompletableFuture<HttpResponse<String>> submit = group.http.sendAsync(group.submit(a.http()),
                    HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> health = group.http.sendAsync(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + a.http() + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());

            Await.until("b leads while a is stopped", () -> group.role(b.http()).equals("leader"));
            long epochB = group.get(b.http(), "/healthz").get("epoch").asLong();
            assertTrue(System.nanoTime() - stopped > TimeUnit.SECONDS.toNanos(3), "a was stopped past its session");
            HaProcesses.signal(a, "CONT");

            JsonNode seen = group.json.readTree(health.get(30, TimeUnit.SECONDS).body());
            assertNotEquals("leader", seen.path("role").asText(), "the resumed scheduler says it leads: " + seen);
            HttpResponse<String> refused = submit.get(30, TimeUnit.SECONDS);
            assertEquals(503, refused.statusCode(), "a submission is not acknowledged by the old leader: " + refused.body());
            Message reply = answerOrNull(heartbeat);
            if (reply instanceof HeartbeatReply started) {
                throw new AssertionError("the resumed scheduler answered a heartbeat, starting " + started.jobsToStart());
            }
            if (reply instanceof ErrorReply error) {
                assertEquals(ErrorCode.NOT_LEADER, error.code(), error.message());
            }
            Await.until("a follows b", () -> group.role(a.http()).equals("standby"));
            node.close();

            // b writes; every record of the log after b's epoch began is b's (a batch id holds its epoch)
            HttpResponse<String> written = group.http.send(group.submit(b.http()), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, written.statusCode(), written.body());
            ZkLayout layout = new ZkLayout(ZkLayout.DEFAULT_ROOT);
            List<Long> epochs = new ArrayList<>();
            List<String> records = new ArrayList<>(zk.getChildren().forPath(layout.log()));
            records.sort(null);
            for (String record : records) {
                byte[] data = zk.getData().forPath(layout.log() + "/" + record);
                epochs.add(ByteBuffer.wrap(data, 1, 8).getLong() >>> 32);
            }
            int firstOfB = epochs.indexOf(epochB);
            assertTrue(firstOfB >= 0, "b wrote: " + epochs);
            assertFalse(epochs.subList(firstOfB, epochs.size()).stream().anyMatch(e -> e < epochB),
                    "a record of an older epoch after b's: " + epochs);
            List<String> ids = new ArrayList<>();
            group.get(b.http(), "/api/v1/operations").forEach(op -> ids.add(op.get("id").asText()));
            assertEquals(2, ids.size(), "the operation before the pause and b's, nothing of the paused leader: " + ids);
            System.out.printf("paused leader: b led at epoch %d; after SIGCONT a answered %s, health %s, submit %d%n",
                    epochB, reply == null ? "nothing (connection closed)" : reply, seen.path("role").asText(),
                    refused.statusCode());
        }
    }

    private static Message answerOrNull(CompletableFuture<Message> reply) {
        try {
            return reply.get(30, TimeUnit.SECONDS);
        } catch (Exception closed) {
            return null;
        }
    }
}
