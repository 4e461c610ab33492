package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Welcome;
import io.grove.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a pool used, by every view, through a real daemon killed (-9) at random points: usage by
 * pool, usage by user, the job records and the Prometheus counters agree to the cpu-second.
 */
class UsageReconciliationTest {

    static final Pattern COUNTER = Pattern.compile("grove_pool_resource_seconds_total\\{([^}]*)} (\\S+)");

    @Test
    void usageByPoolByUserAndTheJobRecordsAgreeAfterKillNineAtRandomPoints(@TempDir Path dir) throws Exception {
        Random random = new Random(51);
        Path config = DaemonFixture.config(dir, AccountingTest.POOLS);
        Path data = dir.resolve("data");
        // the counters count the ends the running daemon processed: the jobs that ended since it started
        Instant started = Instant.now();
        DaemonProcess daemon = DaemonProcess.start(config, data);
        DaemonFixture users = new DaemonFixture().at(daemon.httpPort, daemon.nodePort);
        DaemonFixture.FakeNode node = users.node("n1", 4);
        try {
            assertInstanceOf(Welcome.class, node.handshake());
            String spec = "\ntasks:\n  main: {job_count: 6, command: x, cpu: 1, memory: 1Gi}\n";
            List<String> operations = new ArrayList<>();
            for (String submit : new String[] {"alice:prod", "bob:open"}) {
                DaemonFixture.Reply submitted = users.sendAs(submit.split(":")[0], "POST", "/api/v1/operations",
                        "pool: " + submit.split(":")[1] + spec);
                assertEquals(201, submitted.status());
                operations.add(submitted.body().get("id").asText());
            }
            int kills = 0;
            // steps until both operations completed: a heartbeat brings no start until the restarted daemon has
            // computed fair shares, and a busy machine spends more heartbeats on that
            for (int step = 0; step < 4000 && (kills < 3 || !node.running.isEmpty()
                    || attemptsEnded(users, operations) < 0); step++) {
                node.heartbeat();
                List<String> running = new ArrayList<>(node.running.keySet());
                if (!running.isEmpty() && random.nextInt(3) == 0) {
                    String job = running.get(random.nextInt(running.size()));
                    node.complete(job);
                }
                if (kills < 3 && random.nextInt(12) == 0) {
                    // sometimes right after ends were heard and before the ledger wrote them
                    node.heartbeat();
                    daemon.kill();
                    kills++;
                    Map<String, HeartbeatReply.JobToStart> stillRunning = new LinkedHashMap<>(node.running);
                    node.close();
                    started = Instant.now();
                    daemon = DaemonProcess.start(config, data);
                    users.at(daemon.httpPort, daemon.nodePort);
                    node = users.node("n1", 4);
                    node.running.putAll(stillRunning);
                    assertInstanceOf(Welcome.class, node.handshake());
                }
            }
            assertEquals(3, kills, "the daemon was killed three times");
            assertTrue(attemptsEnded(users, operations) >= 0, "both operations completed");
            node.heartbeat();
            // a job whose end the killed daemon acknowledged but had not written is ended as lost by the next
            // one and run again, since this test's node does not send acknowledged results again as an agent
            // does (ResentResultTest): every attempt that ended has its record
            try {
                Await.untilChecked("every ended attempt's record in the ledger", () -> ended(users) == attemptsEnded(users, operations));
            } catch (AssertionError e) {
                // what to look at when it does not: the records, the attempts (-1: an operation not completed) and the jobs
                throw new AssertionError(e.getMessage() + ": " + ended(users) + " records, " + attemptsEnded(users, operations)
                        + " attempts ended; operations " + users.sendAs("carol", "GET", "/api/v1/operations?all=true", null).body()
                        + "; records " + users.sendAs("carol", "GET", "/api/v1/jobs?limit=1000", null).body(), e);
            }
            JsonNode records = users.sendAs("carol", "GET", "/api/v1/jobs?limit=1000", null).body();
            Map<String, Double> byPool = new TreeMap<>();
            Map<String, Double> byUser = new TreeMap<>();
            Map<String, Double> sinceStart = new TreeMap<>();
            for (JsonNode record : records) {
                double cpuSeconds = record.get("resources").get("cpu").asDouble() * record.get("seconds").asDouble();
                byPool.merge(record.get("pool").asText(), cpuSeconds, Double::sum);
                byPool.merge("<Root>", cpuSeconds, Double::sum);
                byUser.merge(record.get("user").asText(), cpuSeconds, Double::sum);
                if (!Instant.parse(record.get("finished_at").asText()).isBefore(started)) {
                    sinceStart.merge(record.get("pool").asText(), cpuSeconds, Double::sum);
                }
            }
            assertTrue(byPool.get("prod") > 1 && byPool.get("open") > 1, "jobs ran across the restarts: " + byPool);
            DaemonFixture fixture = users;
            // the hours are written with the records, in the same transaction: at once, not at the next minute's metering
            Await.within("usage by pool to agree with the records", Duration.ofSeconds(5), Duration.ofMillis(50),
                    () -> byPool.equals(rounded(used(fixture, "pool"), byPool)));
            assertEquals(byUser, rounded(used(users, "user"), byUser), "usage by user");
            Map<String, Double> counters = new TreeMap<>();
            Matcher counter = COUNTER.matcher(users.get("/metrics").body().asText());
            while (counter.find()) {
                String labels = counter.group(1);
                if (labels.contains("kind=\"used\"") && labels.contains("resource=\"cpu\"")) {
                    Matcher pool = Pattern.compile("pool=\"([^\"]*)\"").matcher(labels);
                    assertTrue(pool.find());
                    counters.put(pool.group(1), Double.parseDouble(counter.group(2)));
                }
            }
            for (Map.Entry<String, Double> pool : sinceStart.entrySet()) {
                assertEquals(pool.getValue(), counters.get(pool.getKey()), 1e-6,
                        "the counter counts the jobs that ended since the daemon started: " + counters);
            }
        } finally {
            node.close();
            users.close();
            daemon.kill();
        }
    }

    /** Running jobs count from their start up to now, by pool and by user; once they end, from their records only. */
    @Test
    void runningJobsCountUpToNowAndOnceTheyEndOnlyTheirRecordsDo(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = SchedulerDaemon.start(AccountingTest.metered(dir, AccountingTest.POOLS), Clock.SYSTEM);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            DaemonFixture.FakeNode node = users.node("n1", 8);
            assertInstanceOf(Welcome.class, node.handshake());
            assertEquals(201, users.sendAs("bob", "POST", "/api/v1/operations",
                    "pool: open\ntasks:\n  main: {job_count: 2, command: x, cpu: 2, memory: 1Gi}\n").status());
            AccountingTest.startJobs(node, 2);
            assertEquals(0, ended(users), "no job ended");
            double before = used(users, "pool").getOrDefault("open", 0.0);
            Await.untilChecked("the running jobs' use to grow", () -> used(users, "pool").getOrDefault("open", 0.0) > before
                    && used(users, "pool").getOrDefault("open", 0.0) > 0);
            assertTrue(used(users, "user").getOrDefault("bob", 0.0) > 0, "by user too");
            // running jobs are read with the same visibility as ended ones: alice, who does not administer open,
            // sees no one else's usage by user or operation
            for (String by : new String[] {"user", "operation"}) {
                JsonNode rows = users.sendAs("alice", "GET", "/api/v1/usage?by=" + by + "&since=1d", null).body().get("rows");
                assertEquals(0, rows.size(), "alice sees no running job of bob's by " + by + ": " + rows);
            }
            assertEquals(used(users, "pool").get("open") > 0, used(users, "pool").get("<Root>") > 0, "and the root");
            node.completeAll();
            node.heartbeat();
            Await.untilChecked("both records", () -> ended(users) == 2);
            double records = 0;
            for (JsonNode record : users.sendAs("carol", "GET", "/api/v1/jobs", null).body()) {
                records += 2 * record.get("seconds").asDouble();
            }
            assertEquals(records, used(users, "pool").get("open"), 1e-6, "counted once: from the records");
            assertEquals(records, used(users, "user").get("bob"), 1e-6);
            node.close();
        }
    }

    /** How many job attempts of {@code operations} ended, once all are finished (else -1). */
    private static int attemptsEnded(DaemonFixture users, List<String> operations) throws Exception {
        int ended = 0;
        for (String id : operations) {
            JsonNode operation = users.sendAs("carol", "GET", "/api/v1/operations/" + id, null).body();
            if (!operation.get("state").asText().equals("completed")) {
                return -1;
            }
            JsonNode progress = operation.get("progress");
            ended += progress.get("completed").asInt() + progress.get("failed").asInt() + progress.get("aborted").asInt();
        }
        return ended;
    }

    /** How many jobs the ledger holds. */
    private static int ended(DaemonFixture users) throws Exception {
        return users.sendAs("carol", "GET", "/api/v1/jobs?limit=1000", null).body().size();
    }

    /** The cpu-seconds used by each group today, as usage reports them (in cpu-hours). */
    private static Map<String, Double> used(DaemonFixture users, String by) throws Exception {
        Map<String, Double> used = new TreeMap<>();
        for (JsonNode row : users.sendAs("carol", "GET", "/api/v1/usage?by=" + by + "&since=1d", null).body().get("rows")) {
            used.put(row.get("key").asText(), row.path("hours").path("used").path("cpu").asDouble() * 3600);
        }
        return used;
    }

    /** {@code reported} with each value that agrees with {@code expected}'s to a millionth of a cpu-second replaced by it. */
    private static Map<String, Double> rounded(Map<String, Double> reported, Map<String, Double> expected) {
        Map<String, Double> out = new TreeMap<>(reported);
        out.replaceAll((key, value) -> expected.containsKey(key) && Math.abs(expected.get(key) - value) < 1e-6
                ? expected.get(key) : value);
        return out;
    }
}
