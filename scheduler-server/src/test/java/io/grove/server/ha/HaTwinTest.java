package io.grove.server.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.server.coord.MemoryCoordination;
import io.grove.server.coord.MemoryEnsemble;
import io.grove.server.coord.ZkLayout;
import io.grove.server.ha.HaGroup.Member;
import io.grove.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real scheduler, its API and its role machine, on the in-memory twin of the coordination: a
 * submission whose write is applied but whose reply is lost, and a leader that cannot start.
 */
class HaTwinTest {

    @TempDir
    Path dir;
    final ZkLayout layout = new ZkLayout(ZkLayout.DEFAULT_ROOT);
    final MemoryEnsemble ensemble = new MemoryEnsemble(System::nanoTime, Duration.ofSeconds(3), layout);
    HaGroup group;
    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();

    @AfterEach
    void stop() {
        if (group != null) {
            group.close();
        }
    }

    Member member(MemoryCoordination client, String pools) throws Exception {
        if (group == null) {
            group = HaGroup.in(dir, HaSchedulerTest.POOLS);
        }
        return group.join(client.name(), client, pools);
    }

    HttpResponse<String> submit(Member member, String key) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(member.api() + "/api/v1/operations"))
                .header("X-Grove-User", "alice").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"pool\": \"etl\", \"tasks\": {\"main\": "
                        + "{\"job_count\": 1, \"cpu\": 1, \"command\": \"true\"}}}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    JsonNode get(Member member, String path) throws Exception {
        return json.readTree(http.send(HttpRequest.newBuilder(URI.create(member.api() + path))
                .header("X-Grove-User", "alice").build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    @Test
    void aSubmissionWhoseReplyWasLostIsSaidUnknownAndARetryWithItsKeyMakesItOnce() throws Exception {
        MemoryCoordination client = ensemble.client("a");
        Member a = member(client, HaSchedulerTest.POOLS);
        Await.until("a leads", () -> a.scheduler().isLeader());

        client.loseReplyOfNextWriteUnder(layout.logRecord());
        HttpResponse<String> unknown = submit(a, "k-1");
        assertEquals(503, unknown.statusCode(), unknown.body());
        assertEquals("OUTCOME_UNKNOWN", json.readTree(unknown.body()).get("code").asText(), unknown.body());

        // the leader steps down, rejoins, is elected again with a new epoch and reads what was written
        Await.untilChecked("a leads again, at a new epoch", () -> a.scheduler().isLeader()
                && get(a, "/healthz").path("epoch").asLong() >= 2);
        HttpResponse<String> retried = submit(a, "k-1");
        assertTrue(retried.statusCode() == 200 || retried.statusCode() == 201, retried.body());
        List<String> ids = new ArrayList<>();
        get(a, "/api/v1/operations").forEach(op -> ids.add(op.get("id").asText()));
        assertEquals(List.of(json.readTree(retried.body()).get("id").asText()), ids,
                "one operation: the one written under the unknown outcome, found again by its key");
    }

    @Test
    void aLeaderThatCannotStartLeavesNoLeaderRecordAndLetsAnotherLead() throws Exception {
        MemoryCoordination broken = ensemble.client("broken");
        Member bad = member(broken, "default_tree: physical\npool_trees: {physical: {pools: {etl: {weight: -1}}}}\n");
        Await.until("the broken one has claimed and given up twice", () -> ensemble.epoch() >= 2);
        assertNull(ensemble.observer().read(layout.leader()), "no leader record of a scheduler that never led");
        assertEquals("standby", get(bad, "/healthz").path("role").asText());

        Member good = member(ensemble.client("good"), HaSchedulerTest.POOLS);
        Await.until("the good one leads", () -> good.scheduler().isLeader());
        assertTrue(LeaderRecord.read(ensemble.observer(), layout).api().equals(good.api()));
    }
}
