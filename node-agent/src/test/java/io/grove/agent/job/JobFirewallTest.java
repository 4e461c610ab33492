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
}
