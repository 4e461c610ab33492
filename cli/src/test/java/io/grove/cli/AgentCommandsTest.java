package io.grove.cli;

import static io.grove.cli.GroveCliTest.grove;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.AgentDaemon;
import io.grove.agent.AgentSettings;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.core.resource.Resources;
import io.grove.protocol.broker.BrokerClient;
import io.grove.protocol.broker.BrokerMessage;
import io.grove.testing.Ports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code grove agent --show-broker-config} and {@code grove broker status} against a real agent. */
class AgentCommandsTest {

    private static final Path CONFIG = Path.of("..", "config");

    @Test
    void theLegacyBrokerConfigurationIsShownConverted() {
        GroveCliTest.Run run = grove("agent", "--broker-config", CONFIG.resolve("broker-legacy.yaml").toString(),
                "--show-broker-config");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("resource_limit: {cpu: 24}"), run.out());
        assertTrue(run.out().contains("queue_legacy0: {weight: 100, limit: {cpu: 10}}"), run.out());
        assertTrue(run.out().contains("compaction_gen3: {queue: queue_legacy3, default_duration: 30s}"), run.out());
    }

    @Test
    void aBrokenBrokerConfigurationIsRefusedWithItsLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("broker.yaml");
        java.nio.file.Files.writeString(file, "queues:\n  q: {weight: 1, limmit: {cpu: 1}}\ntask_types: {unknown: {queue: q}}\n");
        GroveCliTest.Run run = grove("agent", "--broker-config", file.toString(), "--show-broker-config");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("broker.yaml:2: q.limmit: unknown key 'limmit' (did you mean 'limit'?)"),
                run.err());
    }

    @Test
    void brokerStatusShowsQueuesTypesAndTasks(@TempDir Path dir) throws Exception {
        int unusedPort = Ports.free();
        AgentSettings settings = AgentSettings.defaults("127.0.0.1", unusedPort, dir, new Resources(2, 2, 0, 4L << 30, 0))
                .withNodeId("n1").withPorts(0, 0);
        try (AgentDaemon agent = AgentDaemon.start(settings, ProcessJobRunner.system());
                BrokerClient client = BrokerClient.connect("127.0.0.1", agent.brokerPort(), agent.brokerTokens().client(), m -> { })) {
            client.submit(new BrokerMessage.Submit(7, "compact t1", new BrokerMessage.Amounts(1.0, null),
                    "compaction_gen0", 0, null)).get(30, TimeUnit.SECONDS);
            GroveCliTest.Run run = grove("broker", "status", "--node", "127.0.0.1:" + agent.httpPort());
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.out().contains("queue_compaction_gen0"), run.out());
            assertTrue(run.out().matches("(?s).*local-1\\s+7 compact t1\\s+compaction_gen0\\s+in_fly.*"), run.out());
            GroveCliTest.Run json = grove("broker", "status", "--node", "127.0.0.1:" + agent.httpPort(), "-o", "json");
            assertTrue(json.out().contains("\"config_yaml\""), json.out());
        }
        GroveCliTest.Run down = grove("broker", "status", "--node", "127.0.0.1:" + unusedPort);
        assertEquals(3, down.exitCode());
        assertTrue(down.err().startsWith("grove broker status: cannot reach the agent at http://127.0.0.1:" + unusedPort),
                down.err());
    }

    @Test
    void aTopologyThatIsNotLevelEqualsDomainIsRefusedSayingWhere(@TempDir Path dir) throws Exception {
        GroveCliTest.Run run = grove("agent", "--scheduler", "127.0.0.1:1", "--work-dir", dir.toString(), "--topology",
                "block=b1,rack r07");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("--topology: topology part 'rack r07' is not level=domain"), run.err());
        Path file = Files.writeString(dir.resolve("topology"), "block=b1\nrack=r07\nrack=r08\n");
        GroveCliTest.Run twice = grove("agent", "--scheduler", "127.0.0.1:1", "--work-dir", dir.toString(),
                "--topology-file", file.toString());
        assertEquals(2, twice.exitCode(), twice.err());
        assertTrue(twice.err().contains("--topology-file " + file + ": topology level rack is given twice"), twice.err());
    }
}
