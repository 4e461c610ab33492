package io.grove.agent.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The jobs' firewall as {@code nft} reads it; a real table is tried by {@code HostileJobSuiteTest}. */
class JobFirewallTest {

    @Test
    void theTableReplacesAPreviousRunsAndRejectsTheJobUidsOnly() throws Exception {
        String script = JobFirewall.script("grove_1", List.of(43002, 43000, 43001, 43005),
                JobFirewall.resolve(List.of(JobFirewall.Endpoint.parse("127.0.0.1:7077"), JobFirewall.Endpoint.parse("[::1]:2181"))),
                List.of(7079, 7078));
        List<String> lines = script.lines().toList();
        assertEquals("table inet grove_1", lines.get(0));
        assertEquals("delete table inet grove_1", lines.get(1), "one transaction replaces a previous run's table");
        assertTrue(script.contains("meta skuid { 43000-43002, 43005 } fib daddr type local tcp dport { 7078, 7079 } "
                + "reject with tcp reset"), script);
        assertTrue(script.contains("meta skuid { 43000-43002, 43005 } ip daddr 127.0.0.1 tcp dport 7077 reject"), script);
        assertTrue(script.contains("ip6 daddr 0:0:0:0:0:0:0:1 tcp dport 2181 reject"), script);
        assertTrue(script.contains("policy accept;"), "everything else stays as the site has it: " + script);
    }

    @Test
    void aControlPlaneAddressIsHostAndPort() {
        assertEquals(new JobFirewall.Endpoint("zk-1.example.org", 2181), JobFirewall.Endpoint.parse("zk-1.example.org:2181"));
        for (String bad : List.of("zk-1", "zk-1:", ":2181", "zk-1:0", "zk-1:65536", "zk 1:2181", "zk;drop:2181")) {
            assertThrows(IllegalArgumentException.class, () -> JobFirewall.Endpoint.parse(bad), bad);
        }
    }

    @Test
    void aTableNftRefusesStopsTheInstallAndATableInstalledGoesAtClose() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(JobUsers.processIsRoot(), "nftables needs root");
        java.nio.file.Path nft = JobFirewall.locateNft();
        org.junit.jupiter.api.Assumptions.assumeTrue(nft != null, "nftables is not installed");
        java.io.IOException refused = assertThrows(java.io.IOException.class, () -> JobFirewall.install(nft, "bad name",
                List.of(43000), List.of(), List.of(7078)));
        assertTrue(refused.getMessage().contains("nft refused the jobs' firewall"), refused.getMessage());
        String table = "grove_test_" + Long.toHexString(System.nanoTime());
        JobFirewall installed = JobFirewall.install(nft, table, List.of(43000), List.of(), List.of(7078));
        assertEquals(0, list(nft, table), "installed");
        installed.close();
        assertTrue(list(nft, table) != 0, "removed at close");
    }

    private static int list(java.nio.file.Path nft, String table) throws Exception {
        return SystemPrograms.fixed(List.of(nft.toString(), "list", "table", "inet", table))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }
}
