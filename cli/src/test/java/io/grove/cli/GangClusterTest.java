package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.core.node.NodeTopology;
import io.grove.core.resource.Resources;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real gang on a real scheduler and two agents in one rack: four ranks rendezvous over TCP with
 * the variables the scheduler gives them (rank 0 listens on MASTER_PORT, the others connect and say
 * their rank), and a rank that fails its first attempt makes every rank start again.
 */
class GangClusterTest {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                topology_levels: [rack]
                pools:
                  train: {}
            """;

    /**
     * Each rank checks its variables; rank 0 takes every other rank's connection within 20 s, and
     * refuses a rank that comes twice; the others connect and wait for the go. With FAIL_ONCE set,
     * rank 1 exits 1 in the gang's first attempt (whose jobs are the operation's first four).
     */
    static final String RENDEZVOUS = """
            import os, socket, sys, time
            env = os.environ
            rank, world = int(env["RANK"]), int(env["WORLD_SIZE"])
            hosts = env["GROVE_GANG_HOSTS"].split(",")
            assert env["GROVE_GANG_RANK"] == str(rank) and env["GROVE_GANG_SIZE"] == str(world), "rank variables"
            assert world == 4 and len(hosts) == 4 and env["MASTER_ADDR"] == hosts[0], "hosts"
            assert int(env["LOCAL_RANK"]) < int(env["LOCAL_WORLD_SIZE"]), "local rank"
            if env.get("FAIL_ONCE") and rank == 1 and int(env["GROVE_JOB_ID"].rsplit("-", 1)[1]) <= world:
                sys.exit(1)
            port = int(env["MASTER_PORT"])
            if rank == 0:
                server = socket.socket()
                server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                server.bind(("0.0.0.0", port))
                server.listen(world)
                server.settimeout(20)
                seen, peers = {0}, []
                while len(seen) < world:
                    peer, _ = server.accept()
                    other = int(peer.recv(16).decode())
                    if other in seen:
                        sys.exit("rank %d came twice" % other)
                    seen.add(other)
                    peers.append(peer)
                for peer in peers:
                    peer.sendall(b"go")
                print("rendezvous of", sorted(seen))
            else:
                deadline = time.time() + 20
                while True:
                    try:
                        conn = socket.create_connection((env["MASTER_ADDR"], port), timeout=2)
                        break
                    except OSError:
                        if time.time() > deadline:
                            sys.exit("rank 0 never listened")
                        time.sleep(0.05)
                conn.sendall(str(rank).encode())
                conn.settimeout(20)
                assert conn.recv(2) == b"go", "no go"
                print("rank", rank, "joined")
            """;

    @RegisterExtension
    static final LocalClusterExtension CLUSTER = LocalClusterExtension.of(POOLS, 2)
            .each(new Resources(8, 2, 0, 2L << 30, 0))
            .topology(i -> NodeTopology.parse("rack=r1"));

    static GroveCliTest.Run grove(String... args) {
        return CLUSTER.grove(args);
    }

    private static String submit(String... env) {
        List<String> args = new ArrayList<>(List.of("submit", "--pool", "train", "--topology", "required=rack", "--jobs",
                "4", "--cpu", "1", "--memory", "64Mi", "--wait", "--env", "RENDEZVOUS=" + RENDEZVOUS));
        for (String pair : env) {
            args.addAll(List.of("--env", pair));
        }
        args.addAll(List.of("--", "python3 -c \"$RENDEZVOUS\""));
        GroveCliTest.Run run = grove(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.out() + run.err());
        return run.out().lines().findFirst().orElseThrow();
    }

    private static JsonNode jobs(String id) throws Exception {
        return new ObjectMapper().readTree(grove("jobs", "list", id, "-o", "json").out());
    }

    /** The jobs of one attempt of every rank: each rank once, all started within a second of each other. */
    private static void startedTogether(List<JsonNode> jobs) {
        Set<Integer> ranks = new HashSet<>();
        Instant first = Instant.MAX;
        Instant last = Instant.MIN;
        for (JsonNode job : jobs) {
            assertTrue(ranks.add(job.get("gang_rank").asInt()), "rank twice: " + jobs);
            Instant started = Instant.parse(job.get("started_at").asText());
            first = started.isBefore(first) ? started : first;
            last = started.isAfter(last) ? started : last;
        }
        assertEquals(Set.of(0, 1, 2, 3), ranks);
        assertTrue(Duration.between(first, last).compareTo(Duration.ofSeconds(1)) < 0,
                "every rank started in the same turn: " + first + " to " + last);
    }

    @Test
    void fourRanksOnTwoNodesFindEachOtherAndEachRunsOnce() throws Exception {
        String id = submit();
        JsonNode jobs = jobs(id);
        assertEquals(4, jobs.size(), "one attempt each: " + jobs);
        List<JsonNode> all = new ArrayList<>();
        Set<String> nodes = new HashSet<>();
        for (JsonNode job : jobs) {
            assertEquals("completed", job.get("state").asText(), job.toString());
            nodes.add(job.get("node").asText());
            all.add(job);
        }
        assertEquals(2, nodes.size(), "the ranks span both nodes of the rack");
        startedTogether(all);
        JsonNode gang = new ObjectMapper().readTree(grove("ops", "get", id, "-o", "json").out()).get("gang");
        assertEquals("finished", gang.get("state").asText(), gang.toString());
        assertTrue(grove("ops", "get", id).out().contains("finished: 4 ranks, topology required rack"));
        List<String> said = gangEvents(id, "started");
        assertTrue(said.get(0).contains("\"state\":\"planned\"") && said.get(0).contains("4 ranks on "), said.toString());
        assertTrue(said.get(1).contains("every rank started"), said.toString());
    }

    /** The gang events of an operation, replayed from the event stream, up to the first in {@code last} state. */
    private static List<String> gangEvents(String id, String last) throws Exception {
        HttpResponse<InputStream> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(CLUSTER.url() + "/api/v1/events?operation=" + id + "&last_event_id=0")).header("X-Grove-User", "alice")
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        List<String> said = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null;) {
                if (line.startsWith("data:") && line.contains("\"type\":\"gang\"")) {
                    said.add(line);
                    if (line.contains("\"state\":\"" + last + "\"")) {
                        return said;
                    }
                }
            }
        }
        return said;
    }

    @Test
    void aGangThatCanNeverStartIsRefusedAtSubmitSayingWhy() {
        GroveCliTest.Run block = grove("submit", "--pool", "train", "--topology", "required=block", "--jobs", "2", "--",
                "true");
        assertTrue(block.exitCode() != 0, block.out());
        assertTrue(block.err().contains("knows no level 'block'; its topology_levels: [rack]"), block.err());
        GroveCliTest.Run large = grove("submit", "--pool", "train", "--gang", "--jobs", "5", "--cpu", "1", "--", "true");
        assertTrue(large.exitCode() != 0, large.out());
        assertTrue(large.err().contains("the gang can never start in tree \"physical\", even with every node empty: it "
                + "needs 5 ranks (1 cpu, 512Mi memory each) at once; 4 fit"), large.err());
    }

    @Test
    void aRankThatFailsItsFirstAttemptRestartsEveryRankAndCountsOnce() throws Exception {
        String id = submit("FAIL_ONCE=1");
        JsonNode jobs = jobs(id);
        List<JsonNode> second = new ArrayList<>();
        int failed = 0;
        int restarted = 0;
        for (JsonNode job : jobs) {
            if (job.get("state").asText().equals("completed")) {
                second.add(job);
            } else if (job.get("state").asText().equals("failed")) {
                failed++;
                assertEquals(1, job.get("gang_rank").asInt());
            } else {
                restarted++;
                assertEquals("gang_restart", job.get("reason").asText(), job.toString());
            }
        }
        assertEquals(1, failed, jobs.toString());
        assertEquals(3, restarted, "the other three ranks of the first attempt stopped: " + jobs);
        startedTogether(second);
        JsonNode op = new ObjectMapper().readTree(grove("ops", "get", id, "-o", "json").out());
        assertEquals(1, op.get("progress").get("failed").asInt(), "counted once against max_failed_job_count");
        assertEquals("completed", op.get("state").asText());
        List<String> said = gangEvents(id, "restarting");
        assertTrue(said.get(said.size() - 1).contains("rank 1 (job ") && said.get(said.size() - 1).contains("failed"),
                said.toString());
    }
}
