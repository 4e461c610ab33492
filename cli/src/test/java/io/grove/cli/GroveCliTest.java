package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.out.Printer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroveCliTest {

    private static final Path CONFIG = Path.of("..", "config");

    /** Output of one run. */
    record Run(int exitCode, String out, String err) {
    }

    /** A command against the scheduler at {@code url} as alice: the options go before {@code --}, if any. */
    static Run groveAt(String url, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        int split = all.indexOf("--");
        all.addAll(split < 0 ? all.size() : split, List.of("--scheduler", url, "--user", "alice"));
        return grove(all.toArray(String[]::new));
    }

    static Run grove(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Grove.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void fairShareOfTheExampleSnapshot() throws IOException {
        Run run = grove("fair-share", "--snapshot", CONFIG.resolve("snapshots/example.yaml").toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertEquals("physical", json.get("tree").asText());
        JsonNode elements = json.get("elements");
        JsonNode root = elements.get("<Root>");
        assertEquals("root", root.get("kind").asText());
        assertEquals(1.0, root.get("fair_share").get("total").get("cpu").asDouble(), 1e-9);
        JsonNode prod = elements.get("prod");
        assertEquals(0.4, prod.get("fair_share").get("strong_guarantee").get("cpu").asDouble(), 1e-9);
        JsonNode burst = elements.get("burst");
        assertEquals(0.2, burst.get("fair_share").get("integral_guarantee").get("cpu").asDouble(), 1e-9);
        assertTrue(burst.has("estimated_burst_usage_duration_seconds"));
        assertTrue(json.get("integral_state").has("analytics"));
        for (String key : new String[] {"demand_share", "usage_share", "limits_share", "strong_guarantee_share",
                "satisfaction_ratio", "parent"}) {
            assertTrue(elements.get("etl-daily").has(key), key);
        }
    }

    @Test
    void integralStateChainsFromOneRunToTheNext(@TempDir Path dir) throws IOException {
        Run first = grove("fair-share", "--snapshot", CONFIG.resolve("snapshots/example.yaml").toString());
        JsonNode state = new ObjectMapper().readTree(first.out()).get("integral_state");
        String snapshot = Files.readString(CONFIG.resolve("snapshots/example.yaml"));
        String chained = snapshot.substring(0, snapshot.indexOf("integral_state:"))
                + "integral_state: " + state + "\nelapsed_seconds: 60\n";
        Path next = dir.resolve("next.json.yaml");
        Files.writeString(next, chained);
        Run second = grove("fair-share", "--snapshot", next.toString());
        assertEquals(0, second.exitCode(), second.err());
        JsonNode analytics = new ObjectMapper().readTree(second.out()).get("elements").get("analytics");
        double before = state.get("analytics").get("accumulated_volume").get("cpu").asDouble();
        double lastShare = state.get("analytics").get("last_share_ratio").asDouble();
        // 60 s of 5% flow in, 60 s of the last share out, on 100 cores.
        assertEquals(before + 60 * 100 * (0.05 - lastShare),
                analytics.get("accumulated_resource_volume").get("cpu").asDouble(), 1e-6);
    }

    @Test
    void integralStateChainsOverManyUpdatesAsPrinted(@TempDir Path dir) throws IOException {
        String snapshot = Files.readString(CONFIG.resolve("snapshots/example.yaml"));
        String head = snapshot.substring(0, snapshot.indexOf("integral_state:"));
        JsonNode state = new ObjectMapper().readTree(grove("fair-share", "--snapshot",
                CONFIG.resolve("snapshots/example.yaml").toString()).out()).get("integral_state");
        for (int update = 0; update < 6; update++) {
            // volumes with many decimals, as an update prints them (cpu: 42001.799999999996), are taken back
            Path next = dir.resolve("update-" + update + ".yaml");
            Files.writeString(next, head + "integral_state: " + state + "\nelapsed_seconds: 37.3\n");
            Run run = grove("fair-share", "--snapshot", next.toString());
            assertEquals(0, run.exitCode(), "update " + update + ": " + run.err());
            JsonNode out = new ObjectMapper().readTree(run.out());
            double before = state.get("analytics").get("accumulated_volume").get("cpu").asDouble();
            double lastShare = state.get("analytics").get("last_share_ratio").asDouble();
            assertEquals(Math.max(0, before + 37.3 * 100 * (0.05 - lastShare)),
                    out.get("elements").get("analytics").get("accumulated_resource_volume").get("cpu").asDouble(), 1e-6);
            state = out.get("integral_state");
        }
        Path negative = dir.resolve("negative.yaml");
        Files.writeString(negative, head + "integral_state:\n  analytics: {accumulated_volume: {cpu: -1.5}}\n");
        Run refused = grove("fair-share", "--snapshot", negative.toString());
        assertEquals(1, refused.exitCode());
        assertTrue(refused.err().contains("a volume is a finite number of resource-seconds, at least 0, got -1.5"),
                refused.err());
    }

    @Test
    void jwtSignInNeedsAnIssuerAndAnAudience(@TempDir Path dir) {
        Run noIssuer = grove("scheduler", "--config", CONFIG.resolve("pools.yaml").toString(), "--data-dir",
                dir.toString(), "--oidc-audience", "grove");
        assertEquals(2, noIssuer.exitCode());
        assertTrue(noIssuer.err().contains("--oidc-audience and --jwks need --oidc-issuer"), noIssuer.err());
        Run noAudience = grove("scheduler", "--config", CONFIG.resolve("pools.yaml").toString(), "--data-dir",
                dir.toString(), "--oidc-issuer", "https://id.example.org");
        assertEquals(2, noAudience.exitCode());
        assertTrue(noAudience.err().contains("--oidc-audience is required"), noAudience.err());
    }

    @Test
    void aHighAvailabilityGroupNeedsTheSchedulersZooKeeperIdentity(@TempDir Path dir) throws IOException {
        Run open = grove("scheduler", "--config", CONFIG.resolve("pools.yaml").toString(), "--data-dir",
                dir.toString(), "--zookeeper", "127.0.0.1:1");
        assertEquals(2, open.exitCode());
        assertTrue(open.err().contains("--zookeeper needs --zookeeper-auth-file"), open.err());
        Path auth = dir.resolve("zk-auth");
        Files.writeString(auth, "grove:0123456789abcdef0123\n");
        Files.setPosixFilePermissions(auth, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Run readable = grove("scheduler", "--config", CONFIG.resolve("pools.yaml").toString(), "--data-dir",
                dir.toString(), "--zookeeper", "127.0.0.1:1", "--zookeeper-auth-file", auth.toString());
        assertEquals(2, readable.exitCode());
        assertTrue(readable.err().contains("must be 0600"), readable.err());
        assertFalse(readable.err().contains("0123456789abcdef"), "the password is never printed: " + readable.err());
    }

    @Test
    void aBadSnapshotExitsNonZeroWithEveryProblem(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, String.join("\n",
                "tree:",
                "  total_resources: {cpu: 10}",
                "  pools: {a: {wieght: 2}}",
                "operations:",
                "  - {id: x, pool: nowhere, demand: {cpu: 1}}",
                "  - {pool: a, demand: {cpu: 1}}",
                "  - {id: y, pool: a, demand: {cpu: 1}, usage: {cpu: 2}}",
                "elapsed_seconds: -1",
                ""));
        Run run = grove("fair-share", "--snapshot", bad.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("unknown key 'wieght'"), run.err());
        assertTrue(run.err().contains("needs an 'id'"), run.err());
        assertTrue(run.err().contains("elapsed_seconds"), run.err());
        assertTrue(run.err().contains("operation y: demand"), run.err());
        assertTrue(run.err().contains(":3:"), "problems carry lines: " + run.err());
        assertEquals("", run.out());
    }

    @Test
    void unknownPoolInASnapshotIsNamed(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "tree: {total_resources: {cpu: 10}, pools: {a: {}}}\n"
                + "operations: [{id: x, pool: nowhere, demand: {cpu: 1}}]\n");
        Run run = grove("fair-share", "--snapshot", bad.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("pool 'nowhere', which is not in the tree"), run.err());
    }

    @Test
    void configValidateAcceptsTheExampleAndRefusesInvalidFiles() {
        Run ok = grove("config", "validate", CONFIG.resolve("pools.yaml").toString());
        assertEquals(0, ok.exitCode(), ok.err());
        assertTrue(ok.out().contains("tree physical (default): 7 pools"), ok.out());
        Run bad = grove("config", "validate", CONFIG.resolve("invalid/many-problems.yaml").toString());
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().contains("6 problem(s) in"), bad.err());
        assertTrue(bad.err().contains("many-problems.yaml:9: physical/prod.max_share_ratio"), bad.err());
    }

    @Test
    void missingFilesAreReportedNotThrown() {
        Run run = grove("config", "validate", "no/such/file.yaml");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("cannot read the file"), run.err());
    }

    @Test
    void csvIsRefusedWhereItIsNotPrintedNotIgnored() {
        Run run = grove("ops", "list", "-o", "csv", "--scheduler", "http://127.0.0.1:1");
        assertEquals(ExitCodes.USAGE, run.exitCode(), run.out() + run.err());
        assertEquals("grove: -o csv is for 'grove usage' and 'grove jobs history'; 'grove ops list' prints -o table, "
                + "json or yaml\n", run.err());
        assertEquals("", run.out());
        // where it is printed, it goes on to the scheduler (none here)
        Run usage = grove("usage", "-o", "csv", "--scheduler", "http://127.0.0.1:1");
        assertEquals(ExitCodes.UNREACHABLE, usage.exitCode(), usage.err());
        assertFalse(usage.err().contains("-o csv"), usage.err());
    }

    @Test
    void aTerminalsWidthIsItsColumnsWhenTheySayOne() {
        assertEquals(132, Grove.terminalWidth("132"));
        assertEquals(Printer.WIDTH, Grove.terminalWidth(null));
        assertEquals(Printer.WIDTH, Grove.terminalWidth("wide"));
        assertEquals(Printer.WIDTH, Grove.terminalWidth("12"));
    }

    @Test
    void helpListsTheCommands() {
        Run run = grove("--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("fair-share"));
        assertTrue(run.out().contains("config"));
    }
}
