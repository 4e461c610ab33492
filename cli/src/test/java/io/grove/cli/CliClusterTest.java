package io.grove.cli;

import io.grove.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.cli.client.ExitCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.yaml.snakeyaml.Yaml;

/** Every user and admin command against a real scheduler and two agents on loopback. */
class CliClusterTest {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                default_parent_pool: research
                pools:
                  prod: {weight: 2}
                  small: {max_operation_count: 1}
                  research: {create_ephemeral_subpools: true}
                  quiet: {}
            """;

    @RegisterExtension
    static final LocalClusterExtension CLUSTER = LocalClusterExtension.of(POOLS, 2);

    /** How often a test polls by running a command. */
    static final Duration CLI_POLL = Duration.ofMillis(200);

    static GroveCliTest.Run grove(String... args) {
        return CLUSTER.grove(args);
    }

    @Test
    void aJobPastItsTimeLimitIsStoppedAndFailsForTheTimeLimit() throws Exception {
        GroveCliTest.Run submitted = grove("submit", "--pool", "prod", "--cpu", "0.25", "--time", "2s",
                "--max-failed-jobs", "0", "--wait", "--", "sleep 60");
        assertEquals(ExitCodes.FAILED, submitted.exitCode(), submitted.out() + submitted.err());
        String id = submitted.out().lines().findFirst().orElseThrow();
        JsonNode job = new ObjectMapper().readTree(grove("jobs", "list", id, "-o", "json").out()).get(0);
        assertEquals("failed", job.get("state").asText(), job.toString());
        assertEquals("time_limit", job.get("reason").asText(), job.toString());
        Duration ran = Duration.between(Instant.parse(job.get("started_at").asText()),
                Instant.parse(job.get("finished_at").asText()));
        assertTrue(ran.compareTo(Duration.ofSeconds(2)) >= 0 && ran.compareTo(Duration.ofSeconds(10)) < 0,
                "stopped within moments of its limit: " + ran);
        GroveCliTest.Run bad = grove("submit", "--pool", "prod", "--time", "0s", "--", "true");
        assertTrue(bad.exitCode() != 0 && bad.err().contains("time_limit"), bad.err());
    }

    @Test
    void submitFollowListAndReadTheLogs() throws Exception {
        GroveCliTest.Run submitted = grove("submit", "--pool", "prod", "--jobs", "3", "--cpu", "0.25", "--title", "hello",
                "--env", "WHO=world", "--wait", "--", "echo hello $WHO $GROVE_JOB_INDEX; echo oops >&2");
        assertEquals(0, submitted.exitCode(), submitted.err());
        String id = submitted.out().lines().findFirst().orElseThrow();
        assertTrue(id.matches("op-\\d+"), submitted.out());
        assertTrue(submitted.out().contains("3/3 done, 0 running, 0 pending"), submitted.out());
        assertTrue(submitted.out().strip().endsWith(id + " completed"), submitted.out());

        GroveCliTest.Run list = grove("ops", "list", "--all");
        assertEquals(0, list.exitCode(), list.err());
        assertTrue(list.out().startsWith("ID"), list.out());
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith(id) && l.contains("alice") && l.contains("prod")
                && l.contains("completed") && l.contains("3/0/3")), list.out());
        list.out().lines().forEach(l -> assertTrue(l.length() <= 100, "fits 100 columns: " + l));

        JsonNode json = new ObjectMapper().readTree(grove("ops", "get", id, "-o", "json").out());
        assertEquals("hello", json.get("title").asText());
        Object yaml = new Yaml().load(grove("ops", "list", "--all", "-o", "yaml").out());
        assertTrue(yaml instanceof List<?> ops && !ops.isEmpty(), String.valueOf(yaml));
        // a part of the list says it is a part, on stderr so that the JSON stays whole
        grove("submit", "--pool", "prod", "--", "true");
        GroveCliTest.Run part = grove("ops", "list", "--all", "--limit", "1", "-o", "json");
        assertEquals(1, new ObjectMapper().readTree(part.out()).size(), part.out());
        assertTrue(part.err().contains("only the first 1 operations were read; there are more"), part.err());

        GroveCliTest.Run jobs = grove("jobs", "list", id);
        assertEquals(4, jobs.out().lines().count(), jobs.out());
        GroveCliTest.Run stdout = grove("jobs", "logs", id + "-1");
        assertEquals("hello world 0\n", stdout.out(), stdout.err());
        assertEquals("oops\n", grove("jobs", "logs", id + "-1", "--stderr").out());
        assertEquals(0, grove("ops", "wait", id).exitCode());
    }

    /** An operation whose one job runs until {@code flag} exists. */
    record Gated(String id, Path flag) {
    }

    private Gated gated() throws IOException {
        // as root, jobs have their own /tmp and /var/tmp: a folder they can see is elsewhere
        Path folder = Files.createTempDirectory(Path.of(io.grove.agent.job.JobUsers.processIsRoot() ? "/run" : "/tmp"),
                "grove-watch-");
        Files.setAttribute(folder, "unix:mode", 01777);
        Path flag = folder.resolve("go");
        String id = grove("submit", "--pool", "prod", "--jobs", "1", "--cpu", "0.25", "--",
                "while [ ! -e " + flag + " ]; do sleep 0.05; done").out().strip();
        return new Gated(id, flag);
    }

    @Test
    void watchPrintsWhatHappensAsItHappens() throws Exception {
        Gated gated = gated();
        Path flag = gated.flag();
        String id = gated.id();
        java.util.concurrent.atomic.AtomicReference<GroveCliTest.Run> watched = new java.util.concurrent.atomic.AtomicReference<>();
        Thread watcher = new Thread(() -> watched.set(grove("ops", "watch", id)));
        watcher.start();
        java.util.concurrent.atomic.AtomicReference<GroveCliTest.Run> json = new java.util.concurrent.atomic.AtomicReference<>();
        Thread jsonWatcher = new Thread(() -> json.set(grove("ops", "watch", id, "-o", "json")));
        jsonWatcher.start();
        io.grove.testing.Await.untilChecked("the job runs", () -> new ObjectMapper().readTree(grove("ops", "get", id,
                "-o", "json").out()).at("/progress/running").asInt() == 1);
        Files.writeString(flag, "");
        watcher.join(60_000);
        GroveCliTest.Run run = watched.get();
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("  " + id + "-1  completed on local-"), run.out());
        assertTrue(run.out().strip().endsWith(id + "  completed"), run.out());
        jsonWatcher.join(60_000);
        // -o json: one StateEvent a line, each whole
        List<String> lines = json.get().out().lines().toList();
        assertTrue(lines.size() >= 2, json.get().out());
        for (String line : lines) {
            assertEquals(id, new ObjectMapper().readTree(line).path("operation_id").asText(), line);
        }
        JsonNode last = new ObjectMapper().readTree(lines.get(lines.size() - 1));
        assertEquals("operation", last.path("type").asText());
        assertEquals("completed", last.path("state").asText());
    }

    @Test
    void watchingARunningOperationPrintsWhatHappenedBeforeToo() throws Exception {
        Gated gated = gated();
        Path flag = gated.flag();
        String id = gated.id();
        Await.untilChecked("the job runs", () -> new ObjectMapper().readTree(grove("ops", "get", id, "-o", "json").out())
                .at("/progress/running").asInt() == 1);
        java.util.concurrent.atomic.AtomicReference<GroveCliTest.Run> watched = new java.util.concurrent.atomic.AtomicReference<>();
        Thread watcher = new Thread(() -> watched.set(grove("ops", "watch", id)));
        watcher.start();
        Files.writeString(flag, "");
        watcher.join(60_000);
        String out = watched.get().out();
        assertTrue(out.contains("  " + id + "  submitted by alice to prod"), out);
        assertTrue(out.contains("  " + id + "-1  running on local-"), out);
        assertTrue(out.strip().endsWith(id + "  completed"), out);
    }

    @Test
    void followingALogPrintsItToTheEnd() throws Exception {
        String id = grove("submit", "--pool", "prod", "--cpu", "0.25", "--", "echo first; sleep 1; echo second").out().strip();
        Await.until("the job to run", () -> grove("jobs", "list", id).out().contains("running"));
        GroveCliTest.Run followed = grove("jobs", "logs", id + "-1", "--follow");
        assertEquals(0, followed.exitCode(), followed.err());
        assertEquals("first\nsecond\n", followed.out());
    }

    @Test
    void aFailedOperationMakesWaitExitNonZero() {
        GroveCliTest.Run run = grove("submit", "--jobs", "1", "--cpu", "0.25", "--max-failed-jobs", "0", "--wait", "--",
                "exit 7");
        assertEquals(ExitCodes.FAILED, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains(" failed"), run.out());
    }

    @Test
    void explainSaysWhyAnOperationWaitsAsTheApiDoes(@TempDir Path tmp) throws Exception {
        GroveCliTest.Run huge = grove("submit", "--pool", "prod", "--cpu", "64", "--", "true");
        assertEquals(ExitCodes.REFUSED, huge.exitCode(), "a job larger than every node is refused, as Slurm refuses it");
        assertTrue(huge.err().contains("task main: a job asks for") && huge.err().contains("64 cpu")
                && huge.err().contains("more than any of the 2 node(s) of tree physical"), huge.err());
        Path spec = tmp.resolve("tagged.yaml");
        Files.writeString(spec, "pool: prod\nscheduling_tag_filter: nosuchtag\ntasks:\n  main: {job_count: 1, command: 'true', "
                + "cpu: 0.25, memory: 64Mi}\n");
        String id = grove("submit", "-f", spec.toString()).out().strip();
        java.util.concurrent.atomic.AtomicReference<JsonNode> seen = new java.util.concurrent.atomic.AtomicReference<>();
        Await.until("a fair share for the explanation", Await.unchecked(() -> {
            seen.set(new ObjectMapper().readTree(grove("ops", "explain", id, "-o", "json").out()));
            return !seen.get().at("/trees/0/verdict").asText().equals("no_fair_share_yet");
        }));
        JsonNode explained = seen.get();
        assertEquals("no_matching_node", explained.at("/trees/0/verdict").asText(), explained.toPrettyString());

        GroveCliTest.Run table = grove("ops", "explain", id);
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(table.out().startsWith(id + " in tree physical (pool prod): no matching node"), table.out());
        assertTrue(table.out().lines().anyMatch(l -> l.contains("blocks") && l.contains("no matching node")), table.out());
        assertEquals(0, grove("ops", "abort", id).exitCode());
        assertTrue(grove("ops", "explain", id).out().contains("finished"));
    }

    @Test
    void updateAndAbort() {
        String id = grove("submit", "--pool", "prod", "--jobs", "50", "--cpu", "0.25", "--", "sleep 60").out().strip();
        GroveCliTest.Run updated = grove("ops", "update", id, "--weight", "3", "--limit", "cpu=1");
        assertEquals(0, updated.exitCode(), updated.err());
        assertEquals(id + " updated\n", updated.out());
        assertEquals(0, grove("ops", "abort", id).exitCode());
        GroveCliTest.Run again = grove("ops", "abort", id);
        assertEquals(ExitCodes.REFUSED, again.exitCode());
        assertTrue(again.err().startsWith("grove: Operation " + id + " is already aborted"), again.err());
        assertEquals(ExitCodes.USAGE, grove("ops", "update", id).exitCode());
    }

    @Test
    void errorsAreOneLineWithTheirExitCodes(@TempDir Path tmp) throws Exception {
        GroveCliTest.Run unknown = grove("ops", "get", "op-9999");
        assertEquals(ExitCodes.NOT_FOUND, unknown.exitCode());
        assertEquals("grove: no operation op-9999 (see your operations with 'grove ops list --all')\n", unknown.err());

        Path spec = tmp.resolve("bad.yaml");
        Files.writeString(spec, "pool: prod\ntasks:\n  main: {job_count: 0, command: x, cpu: 1, memory: 1Gi, colour: red}\n");
        GroveCliTest.Run invalid = grove("submit", "-f", spec.toString());
        assertEquals(ExitCodes.REFUSED, invalid.exitCode());
        assertTrue(invalid.err().contains("line 3"), invalid.err());
        assertTrue(invalid.err().contains("colour"), invalid.err());

        assertEquals(0, grove("submit", "--pool", "small", "--cpu", "0.25", "--", "sleep 30").exitCode());
        GroveCliTest.Run limited = grove("submit", "--pool", "small", "--cpu", "0.25", "--", "sleep 30");
        assertEquals(ExitCodes.REFUSED, limited.exitCode());
        assertTrue(limited.err().contains("has been reached") && limited.err().contains("(wait for operations"),
                limited.err());

        GroveCliTest.Run nothing = grove("submit", "--pool", "prod");
        assertEquals(ExitCodes.USAGE, nothing.exitCode());

        GroveCliTest.Run down = GroveCliTest.grove("ops", "list", "--scheduler", "http://127.0.0.1:1");
        assertEquals(ExitCodes.UNREACHABLE, down.exitCode());
        assertTrue(down.err().startsWith("grove: cannot reach the scheduler at http://127.0.0.1:1"), down.err());
    }

    @Test
    void aPoolPausedFromTheCommandLineHoldsItsOperationsUntilResumed() throws Exception {
        GroveCliTest.Run paused = grove("pools", "pause", "quiet");
        assertEquals(0, paused.exitCode(), paused.err());
        assertTrue(paused.out().startsWith("pool quiet paused: no new jobs start in it"), paused.out());
        assertTrue(grove("pools").out().lines().anyMatch(l -> l.startsWith("  quiet [paused] ")), grove("pools").out());
        GroveCliTest.Run submitted = grove("submit", "--pool", "quiet", "--cpu", "0.25", "--", "true");
        assertEquals(0, submitted.exitCode(), submitted.err());
        String id = submitted.out().lines().findFirst().orElseThrow();
        Await.until("the list says why it waits", () -> grove("ops", "list").out().lines()
                .anyMatch(l -> l.startsWith(id + " ") && l.contains("pool quiet is paused by alice")));
        GroveCliTest.Run resumed = grove("pools", "resume", "quiet");
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertEquals("pool quiet resumed", resumed.out().strip());
        assertEquals(0, grove("ops", "wait", id).exitCode(), "it runs once resumed");
        assertEquals(ExitCodes.REFUSED, grove("pools", "resume", "quiet").exitCode(), "not paused any more");
    }

    @Test
    void aNodeDrainedFromTheCommandLineStartsNothingAndDrainedNowItsJobsRunElsewhere() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode nodes = json.readTree(grove("nodes", "-o", "json").out());
        String first = nodes.get(0).path("id").asText();
        String second = nodes.get(1).path("id").asText();
        try {
            GroveCliTest.Run drained = grove("nodes", "drain", first, "--reason", "new disks");
            assertEquals(0, drained.exitCode(), drained.err());
            assertTrue(drained.out().startsWith("node " + first + " drained: no new jobs start on it"), drained.out());
            String listed = grove("nodes").out();
            assertTrue(listed.lines().anyMatch(l -> l.startsWith(first + " ") && l.contains("online, drained")), listed);
            assertTrue(listed.contains("node " + first + " is drained by alice") && listed.contains("(new disks)")
                    && listed.contains("undrain with: grove nodes undrain " + first), listed);

            String id = grove("submit", "--pool", "prod", "--jobs", "2", "--cpu", "0.25", "--", "sleep 600").out().strip();
            // each poll is a command: at most a few a second, as a user's, not one per 5 ms (connections stay open)
            Await.until("both jobs run on the node not drained", CLI_POLL, Await.unchecked(() -> {
                JsonNode jobs = json.readTree(grove("jobs", "list", id, "-o", "json").out());
                return jobs.size() == 2 && jobs.findValuesAsText("state").stream().allMatch("running"::equals)
                        && jobs.findValuesAsText("node").stream().allMatch(second::equals);
            }));

            assertEquals("node " + first + " undrained: jobs start on it again", grove("nodes", "undrain", first).out().strip());
            GroveCliTest.Run now = grove("nodes", "drain", second, "--now");
            assertEquals(0, now.exitCode(), now.err());
            assertTrue(now.out().contains("its running jobs are being stopped"), now.out());
            Await.until("stopped for the drain, they run again on the other node", CLI_POLL, Await.unchecked(() -> {
                JsonNode jobs = json.readTree(grove("jobs", "list", id, "-o", "json").out());
                long stopped = 0;
                long again = 0;
                for (JsonNode job : jobs) {
                    stopped += "node_drained".equals(job.at("/preempted_for/reason").asText()) ? 1 : 0;
                    again += job.path("state").asText().equals("running") && job.path("node").asText().equals(first) ? 1 : 0;
                }
                return stopped == 2 && again == 2;
            }));
            assertEquals(0, grove("ops", "abort", id).exitCode());
            assertEquals(ExitCodes.REFUSED, grove("nodes", "undrain", first).exitCode(), "not drained any more");
            assertEquals(ExitCodes.NOT_FOUND, grove("nodes", "drain", "no-such-node").exitCode());
        } finally {
            grove("nodes", "undrain", first);
            grove("nodes", "undrain", second);
        }
    }

    @Test
    void anOperationSubmittedAfterAnotherWaitsForItAndSaysSo() throws Exception {
        String first = grove("submit", "--pool", "prod", "--cpu", "0.25", "--", "sleep 2").out().strip();
        GroveCliTest.Run second = grove("submit", "--pool", "prod", "--cpu", "0.25", "--after", first, "--", "true");
        assertEquals(0, second.exitCode(), second.err());
        String id = second.out().strip();
        GroveCliTest.Run listed = grove("ops", "list");
        assertTrue(listed.out().lines().anyMatch(l -> l.startsWith(id + " ") && l.contains("it waits for operation " + first)),
                listed.out());
        assertTrue(grove("ops", "explain", id).out().startsWith(id + " in tree physical (pool prod): dependency"),
                grove("ops", "explain", id).out());
        assertEquals(0, grove("ops", "wait", id).exitCode(), "it runs once the first completed");
        GroveCliTest.Run unknown = grove("submit", "--pool", "prod", "--after", "op-99999", "--", "true");
        assertEquals(ExitCodes.REFUSED, unknown.exitCode());
        assertTrue(unknown.err().contains("no operation op-99999"), unknown.err());
        assertEquals(ExitCodes.USAGE, grove("submit", "-f", "x.yaml", "--after", first).exitCode());
    }

    @Test
    void poolsNodesAndConfig(@TempDir Path tmp) throws Exception {
        GroveCliTest.Run pools = grove("pools");
        assertEquals(0, pools.exitCode(), pools.err());
        assertTrue(pools.out().startsWith("tree physical\nPOOL"), pools.out());
        assertTrue(pools.out().lines().anyMatch(l -> l.startsWith("  prod ")), pools.out());
        assertTrue(pools.out().lines().anyMatch(l -> l.startsWith("  research ")), pools.out());
        GroveCliTest.Run pool = grove("pools", "get", "prod");
        assertTrue(pool.out().lines().anyMatch(l -> l.matches("weight\\s+2")), pool.out());
        assertEquals(ExitCodes.NOT_FOUND, grove("pools", "get", "nope").exitCode());

        GroveCliTest.Run nodes = grove("nodes");
        assertEquals(3, nodes.out().lines().count(), nodes.out());
        assertTrue(nodes.out().lines().skip(1).allMatch(l -> l.contains("online") && l.contains("127.0.0.1:")), nodes.out());

        GroveCliTest.Run shown = grove("config", "show");
        assertTrue(shown.out().contains("small: {max_operation_count: 1}"), shown.out() + shown.err());
        assertEquals(0, grove("config", "reload").exitCode());
        Path next = tmp.resolve("next.yaml");
        Files.writeString(next, POOLS.replace("prod: {weight: 2}", "prod: {weight: 5}\n      batch: {}"));
        GroveCliTest.Run diff = grove("config", "diff", next.toString());
        assertEquals(0, diff.exitCode(), diff.err());
        assertTrue(diff.out().contains("~ pool prod (tree physical): weight"), diff.out());
        assertTrue(diff.out().contains("+ pool batch (tree physical)"), diff.out());
        assertTrue(diff.out().contains("fair shares in tree physical for the current demands:"), diff.out());
        Files.writeString(next, POOLS.replace("      small: {max_operation_count: 1}\n", ""));
        GroveCliTest.Run removing = grove("config", "diff", next.toString());
        assertTrue(removing.out().contains("- pool small (tree physical)"), removing.out());
    }

    @Test
    void usageAndHistoryComeFromTheAccountingDatabase() throws Exception {
        GroveCliTest.Run submitted = grove("submit", "--pool", "prod", "--jobs", "2", "--cpu", "0.25", "--wait", "--",
                "exit $GROVE_JOB_INDEX");
        String id = submitted.out().lines().findFirst().orElseThrow();
        Await.until("both jobs in the ledger", () -> grove("jobs", "history", "--operation", id, "-o", "json").out()
                .contains(id + "-"));
        GroveCliTest.Run history = grove("jobs", "history", "--operation", id);
        assertEquals(0, history.exitCode(), history.err());
        assertTrue(history.out().startsWith("JOB"), history.out());
        assertTrue(history.out().lines().anyMatch(l -> l.contains("failed") && l.contains("alice") && l.contains("prod")),
                history.out());
        GroveCliTest.Run failed = grove("jobs", "history", "--operation", id, "--state", "failed", "-o", "csv");
        List<String> lines = failed.out().lines().toList();
        assertTrue(lines.size() >= 2, "the failed attempts of index 1: " + failed.out());
        assertTrue(lines.get(0).startsWith("job,operation,user"), lines.get(0));
        lines.subList(1, lines.size()).forEach(line -> assertTrue(line.contains(",failed,1,failed,"), line));
        GroveCliTest.Run byUser = grove("usage", "--by", "user", "--since", "1h");
        assertEquals(0, byUser.exitCode(), byUser.err());
        assertTrue(byUser.out().lines().anyMatch(l -> l.startsWith("alice") && l.contains("cpu")), byUser.out());
        GroveCliTest.Run csv = grove("usage", "--by", "user", "--since", "1h", "--resource", "cpu", "-o", "csv");
        assertTrue(csv.out().startsWith("USER,RESOURCE,USED,PREEMPTED\r\nalice,cpu,"), csv.out());
        GroveCliTest.Run bad = grove("usage", "--since", "yesterday");
        assertTrue(bad.exitCode() != 0 && bad.err().contains("'since' must be a time ago"), bad.err());
    }
}
