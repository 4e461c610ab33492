package io.grove.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.broker.QueueConfig;
import io.grove.agent.broker.TaskTypeConfig;
import io.grove.config.LoadResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BrokerConfigLoaderTest {

    private static final Path CONFIG = Path.of("..", "config");

    @Test
    void theShippedFileIsTheBuiltInDefault() {
        LoadResult<BrokerConfig> loaded = BrokerConfigLoader.load(CONFIG.resolve("broker.yaml"));
        assertTrue(loaded.ok(), loaded.describe());
        assertEquals(BrokerConfig.builtIn(), loaded.value());
        assertEquals(BrokerConfig.builtIn(),
                BrokerConfigLoader.parse(BrokerConfigWriter.toYaml(BrokerConfig.builtIn()), "written").value());
    }

    @Test
    void theLegacyFormIsConvertedAsTheSeedShows() {
        LoadResult<BrokerConfig> loaded = BrokerConfigLoader.load(CONFIG.resolve("broker-legacy.yaml"));
        assertTrue(loaded.ok(), loaded.describe());
        BrokerConfig config = loaded.value();
        long unlimited = BrokerResources.UNLIMITED_AMOUNT;
        assertEquals(List.of(new QueueConfig("queue_legacy0", 100, new BrokerResources(10_000, unlimited)),
                new QueueConfig("queue_legacy1", 100, new BrokerResources(6_000, unlimited)),
                new QueueConfig("queue_legacy2", 100, new BrokerResources(3_000, unlimited)),
                new QueueConfig("queue_legacy3", 100, new BrokerResources(3_000, unlimited)),
                new QueueConfig("queue_default", 30, new BrokerResources(2_000, unlimited))), config.queues());
        assertEquals(new TaskTypeConfig("compaction_gen2", "queue_legacy2", 30_000), config.taskTypes().get(2));
        assertEquals(new TaskTypeConfig("unknown", "queue_default", 30_000), config.taskTypes().get(4));
        assertEquals(new BrokerResources(24_000, unlimited), config.resourceLimit());
        assertTrue(BrokerConfigWriter.toYaml(config).contains("queue_legacy1: {weight: 100, limit: {cpu: 6}}"));
    }

    record Broken(String name, String yaml, String expected) {
    }

    static List<Broken> broken() {
        return List.of(
                new Broken("unknown key", "queues: {q: {weight: 1, limmit: {cpu: 1}}}\ntask_types: {unknown: {queue: q}}",
                        "unknown key 'limmit' (did you mean 'limit'?)"),
                new Broken("type of a missing queue", "queues: {q: {weight: 1}}\ntask_types: {unknown: {queue: r}}",
                        "refers to queue 'r', which is not declared"),
                new Broken("no unknown type", "queues: {q: {weight: 1}}\ntask_types: {a: {queue: q}}",
                        "task type 'unknown' is required"),
                new Broken("zero weight", "queues: {q: {weight: 0}}\ntask_types: {unknown: {queue: q}}",
                        "weight must be at least 1, got 0"),
                new Broken("gpu", "resource_limit: {gpu: 1}\nqueues: {q: {weight: 1}}\ntask_types: {unknown: {queue: q}}",
                        "the broker manages cpu and memory only, not gpu"),
                new Broken("bad duration", "queues: {q: {weight: 1}}\ntask_types: {unknown: {queue: q, default_duration: 5}}",
                        "is not a duration"),
                new Broken("both forms", "compaction_broker: {queues: [{queue_id: 0, quota: 1}]}\nqueues: {}",
                        "'queues' cannot be combined with 'compaction_broker'"),
                new Broken("legacy without quota", "compaction_broker: {queues: [{queue_id: 0}]}",
                        "a legacy queue needs queue_id and quota"),
                new Broken("not yaml", "queues: [", "broker.yaml:1: not valid YAML"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("broken")
    void problemsAreNamed(Broken c) {
        LoadResult<BrokerConfig> loaded = BrokerConfigLoader.parse(c.yaml(), "broker.yaml");
        assertFalse(loaded.ok());
        assertTrue(loaded.describe().contains(c.expected()), loaded.describe());
    }

    @Test
    void theAgentsOwnTaskTypesAreDeclaredUnderALegacyConfigurationSoNoneCountsAsMissing() {
        BrokerConfig legacy = BrokerConfigLoader.load(CONFIG.resolve("broker-legacy.yaml")).value().withNodeTasks();
        assertTrue(legacy.problems().isEmpty(), legacy.problems().toString());
        io.grove.agent.broker.ResourceBroker broker = new io.grove.agent.broker.ResourceBroker(legacy, 0);
        long id = 1;
        for (String type : List.of(BrokerConfig.SANDBOX_PREPARE, BrokerConfig.LOG_ARCHIVE, BrokerConfig.SANDBOX_CLEANUP)) {
            broker.submit(0, "agent", new io.grove.agent.broker.TaskRequest(id, type, new BrokerResources(0, 1 << 20), type,
                    0, null));
            id++;
        }
        assertEquals(0, broker.status(0).missingTaskTypes(), "the agent's own work is never of an undeclared type");
        assertEquals(legacy, legacy.withNodeTasks(), "declared once");
    }
}
