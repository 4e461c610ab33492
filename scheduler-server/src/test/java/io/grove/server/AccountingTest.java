package io.grove.server;

import io.grove.testing.Await;
import io.grove.testing.Ports;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.accounting.JdbcAccountingStore;
import io.grove.accounting.JobQuery;
import io.grove.core.accounting.JobRecord;
import io.grove.protocol.Welcome;
import io.grove.server.accounting.AccountingSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job ledger and the reports, through a real daemon: who sees what, and nothing lost or doubled by a crash. */
class AccountingTest {

    static final String POOLS = """
            admins: [carol]
            default_tree: physical
            pool_trees:
              physical:
                pools:
                  prod:
                    strong_guarantee_resources: {cpu: 2}
                    acl: {administer: [alice]}
                  open: {}
            """;

    static List<String> ids(JsonNode jobs) {
        List<String> ids = new ArrayList<>();
        jobs.forEach(job -> ids.add(job.get("id").asText()));
        return ids;
    }

    /** Heartbeats until {@code expected} jobs run (bounded, no sleeping). */
    static void startJobs(DaemonFixture.FakeNode node, int expected) throws Exception {
        for (int i = 0; i < 20_000 && node.running.size() < expected; i++) {
            node.heartbeat();
        }
        assertEquals(expected, node.running.size(), "jobs started");
    }

    @Test
    void readersSeeTheirOwnJobsAndTheirPoolsAndUsageIsMetered(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = SchedulerDaemon.start(metered(dir, POOLS), Clock.SYSTEM);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            DaemonFixture.FakeNode node = users.node("n1", 8);
            assertInstanceOf(Welcome.class, node.handshake());
            String spec = "\ntasks:\n  main: {job_count: 2, command: x, cpu: 1, memory: 1Gi}\n";
            assertEquals(201, users.sendAs("alice", "POST", "/api/v1/operations", "pool: prod" + spec).status());
            assertEquals(201, users.sendAs("bob", "POST", "/api/v1/operations", "pool: prod" + spec).status());
            assertEquals(201, users.sendAs("bob", "POST", "/api/v1/operations", "pool: open" + spec).status());
            startJobs(node, 6);
            node.completeAll();
            node.heartbeat();
            Await.untilChecked("the ledger to hold the six jobs", () -> users.sendAs("carol", "GET", "/api/v1/jobs", null).body()
                    .size() == 6);
            List<String> bobs = ids(users.sendAs("bob", "GET", "/api/v1/jobs", null).body());
            assertEquals(4, bobs.size(), "bob sees his own: " + bobs);
            JsonNode alices = users.sendAs("alice", "GET", "/api/v1/jobs", null).body();
            assertEquals(4, alices.size(), "alice sees hers and, administering prod, bob's there: " + alices);
            for (JsonNode job : alices) {
                assertEquals("prod", job.get("pool").asText());
                assertEquals("completed", job.get("state").asText());
                assertEquals(0, job.get("exit_code").asInt());
                assertEquals(1.0, job.get("resources").get("cpu").asDouble(), 1e-9);
            }
            DaemonFixture.Reply page = users.sendAs("carol", "GET", "/api/v1/jobs?limit=4", null);
            assertEquals(4, page.body().size());
            // the next page follows the cursor in X-Next-Cursor: the daemon's fixture does not keep headers, so it is rebuilt
            JsonNode last = page.body().get(3);
            String cursor = java.time.Instant.parse(last.get("finished_at").asText()).toEpochMilli() + "." + last.get("id").asText();
            JsonNode rest = users.sendAs("carol", "GET", "/api/v1/jobs?limit=4&cursor=" + cursor, null).body();
            assertEquals(2, rest.size(), rest.toString());
            Set<String> all = new HashSet<>(ids(page.body()));
            all.addAll(ids(rest));
            assertEquals(6, all.size());
            assertEquals(400, users.sendAs("carol", "GET", "/api/v1/jobs?cursor=nonsense", null).status());
            DaemonFixture.Reply running = users.sendAs("carol", "GET", "/api/v1/jobs?state=running", null);
            assertEquals(400, running.status(), "the history holds ended jobs only");
            assertEquals("'state' must be one of completed, failed, aborted, got 'running'",
                    running.body().get("message").asText());
            assertEquals(400, users.sendAs("carol", "GET", "/api/v1/usage?since=yesterday", null).status());

            JsonNode byUser = users.sendAs("bob", "GET", "/api/v1/usage?by=user&since=1h", null).body().get("rows");
            assertEquals(1, byUser.size(), "bob sees his own usage only: " + byUser);
            assertEquals("bob", byUser.get(0).get("key").asText());
            assertEquals(2, users.sendAs("carol", "GET", "/api/v1/usage?by=user&since=1h", null).body().get("rows").size());
            Await.untilChecked("prod's metering to reach the database", () -> {
                JsonNode rows = users.get("/api/v1/usage?by=pool&since=1h").body().get("rows");
                for (JsonNode row : rows) {
                    if (row.get("key").asText().equals("prod") && row.get("hours").has("strong_guarantee")) {
                        return row.get("hours").get("strong_guarantee").get("cpu").asDouble() > 0;
                    }
                }
                return false;
            });
            assertTrue(users.get("/metrics").body().asText().contains("grove_pool_resource_seconds_total{kind=\"strong_guarantee\""),
                    "the counters of metering");
        }
    }

    /** Usage by pool withholds another user's ephemeral pool, as usage by user withholds that user. */
    @Test
    void usageByPoolShowsNoOtherUsersEphemeralPool(@TempDir Path dir) throws Exception {
        String pools = """
                admins: [dana]
                default_tree: physical
                pool_trees:
                  physical:
                    default_parent_pool: research
                    pools:
                      research:
                        create_ephemeral_subpools: true
                        acl: {administer: [alice]}
                """;
        try (SchedulerDaemon daemon = SchedulerDaemon.start(metered(dir, pools), Clock.SYSTEM);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            DaemonFixture.FakeNode node = users.node("n1", 8);
            assertInstanceOf(Welcome.class, node.handshake());
            String spec = "tasks:\n  main: {job_count: 2, command: x, cpu: 1, memory: 1Gi}\n";
            assertEquals(201, users.sendAs("bob", "POST", "/api/v1/operations", spec).status());
            startJobs(node, 2);
            Await.untilChecked("bob's pool metered", () -> keys(users.sendAs("bob", "GET", "/api/v1/usage?by=pool&since=1h", null)).contains("bob"));
            Set<String> carols = keys(users.sendAs("carol", "GET", "/api/v1/usage?by=pool&since=1h", null));
            assertTrue(carols.contains("research") && !carols.contains("bob"), "not bob's pool: " + carols);
            assertTrue(keys(users.sendAs("alice", "GET", "/api/v1/usage?by=pool&since=1h", null)).contains("bob"),
                    "the administrator of research sees the pools below it");
        }
    }

    /** A daemon of {@code pools} whose metering is written at every update. */
    static DaemonSettings metered(Path dir, String pools) throws Exception {
        return DaemonSettings.defaults(DaemonFixture.config(dir, pools), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofMillis(50))
                .withAccounting(AccountingSettings.DEFAULTS.withMetering(Duration.ZERO, Duration.ZERO));
    }

    private static Set<String> keys(DaemonFixture.Reply reply) {
        Set<String> keys = new HashSet<>();
        reply.body().path("rows").forEach(row -> keys.add(row.get("key").asText()));
        return keys;
    }

    @Test
    void aKillNineBetweenJobEndsAndTheirLedgerWriteLeavesEachRecordExactlyOnce(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, POOLS);
        Path data = dir.resolve("data");
        DaemonProcess daemon = DaemonProcess.start(config, data);
        DaemonFixture users = new DaemonFixture().at(daemon.httpPort, daemon.nodePort);
        try {
            DaemonFixture.FakeNode node = users.node("n1", 4);
            assertInstanceOf(Welcome.class, node.handshake());
            String op = users.submit("prod", 3);
            startJobs(node, 3);
            List<String> jobs = new ArrayList<>(node.running.keySet());
            node.complete(jobs.get(0));
            node.heartbeat();
            Await.untilChecked("the first job in the ledger", () -> users.get("/api/v1/jobs").body().size() == 1);
            // the database is locked by another process: the ledger cannot write the next two ends
            try (Connection lock = DriverManager.getConnection("jdbc:sqlite:" + data.resolve("accounting.db"))) {
                try (Statement statement = lock.createStatement()) {
                    statement.execute("BEGIN EXCLUSIVE");
                }
                node.complete(jobs.get(1));
                node.complete(jobs.get(2));
                node.heartbeat();
                Await.untilChecked("the ledger to fail a write", () -> users.get("/metrics").body().asText()
                        .matches("(?s).*grove_accounting_write_failures_total [1-9].*"));
                assertEquals("completed", users.get("/api/v1/operations/" + op).body().get("state").asText());
                daemon.kill();
                node.close();
                try (Statement statement = lock.createStatement()) {
                    statement.execute("ROLLBACK");
                }
            }
            daemon = DaemonProcess.start(config, data);
            users.at(daemon.httpPort, daemon.nodePort);
            Await.untilChecked("the revived ledger to hold the three jobs", () -> users.get("/api/v1/jobs").body().size() == 3);
            try (JdbcAccountingStore db = JdbcAccountingStore.sqlite(data.resolve("accounting.db"))) {
                assertEquals(List.of(3L, 3L), held(db), "no record lost, none twice");
            }
            assertEquals(Set.copyOf(jobs), Set.copyOf(ids(users.get("/api/v1/jobs").body())));
        } finally {
            users.close();
            daemon.kill();
        }
    }

    /**
     * A leader killed while the accounting database is down: the standby takes over from
     * ZooKeeper, and once PostgreSQL is back every job's record is there exactly once, the one whose
     * end only the dead leader heard included.
     */
    @Test
    void aTakeoverWhileTheDatabaseIsDownLosesAndDoublesNothing(@TempDir Path dir) throws Exception {
        String missing = io.grove.accounting.TestPostgres.missing();
        org.junit.jupiter.api.Assumptions.assumeTrue(missing == null, missing);
        try (io.grove.accounting.TestPostgres postgres = io.grove.accounting.TestPostgres.start(dir.resolve("pg"));
                org.apache.curator.test.TestingServer zookeeper = new org.apache.curator.test.TestingServer(true)) {
            Path config = DaemonFixture.config(dir, POOLS);
            List<String> common = List.of("--zookeeper", zookeeper.getConnectString(), "--zookeeper-session-timeout-ms",
                    "3000", "--accounting-db", postgres.url() + "?user=grove");
            DaemonProcess a = Ports.bind(2, p -> DaemonProcess.start(List.of(), config, dir.resolve("a"),
                    plus(common, "--http-port", p[0], "--node-port", p[1])));
            DaemonFixture users = new DaemonFixture().at(a.httpPort, a.nodePort);
            Await.untilChecked("a leads", () -> users.get("/healthz").body().path("role").asText().equals("leader"));
            DaemonProcess b = Ports.bind(2, p -> DaemonProcess.start(List.of(), config, dir.resolve("b"),
                    plus(common, "--http-port", p[0], "--node-port", p[1])));
            try {
                DaemonFixture.FakeNode node = users.node("n1", 4);
                assertInstanceOf(Welcome.class, node.handshake());
                users.submit("prod", 3);
                startJobs(node, 3);
                List<String> jobs = new ArrayList<>(node.running.keySet());
                node.complete(jobs.get(0));
                node.heartbeat();
                Await.untilChecked("the first job in the ledger", () -> users.get("/api/v1/jobs").body().size() == 1);
                postgres.crash();
                node.complete(jobs.get(1));
                node.heartbeat();
                Await.untilChecked("the leader's ledger to fail a write", () -> users.get("/metrics").body().asText()
                        .matches("(?s).*grove_accounting_write_failures_total [1-9].*"));
                a.kill();
                node.close();
                postgres.resume();
                users.at(b.httpPort, b.nodePort);
                Await.untilChecked("b leads", () -> users.get("/healthz").body().path("role").asText().equals("leader"));
                DaemonFixture.FakeNode back = users.node("n1", 4);
                back.running.put(jobs.get(2), node.running.get(jobs.get(2)));
                assertInstanceOf(Welcome.class, back.handshake());
                back.complete(jobs.get(2));
                back.heartbeat();
                Await.untilChecked("every job's record in the database", () -> users.get("/api/v1/jobs").body().size() == 3);
                try (JdbcAccountingStore db = JdbcAccountingStore.open(postgres.url(), "grove", "")) {
                    assertEquals(List.of(3L, 3L), held(db), "none lost, none twice");
                }
                back.close();
            } finally {
                users.close();
                a.kill();
                b.kill();
            }
        }
    }

    private static List<String> plus(List<String> common, Object... more) {
        List<String> all = new ArrayList<>(common);
        for (Object item : more) {
            all.add(String.valueOf(item));
        }
        return all;
    }

    /** How many job records a ledger holds, and how many distinct jobs they are. */
    private static List<Long> held(JdbcAccountingStore db) throws Exception {
        List<JobRecord> all = db.jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null, null, null,
                100_000));
        return List.of(db.jobRecords(), all.stream().map(JobRecord::jobId).distinct().count());
    }
}
