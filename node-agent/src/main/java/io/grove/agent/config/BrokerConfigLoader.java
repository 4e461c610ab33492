package io.grove.agent.config;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.broker.QueueConfig;
import io.grove.agent.broker.TaskTypeConfig;
import io.grove.config.LoadResult;
import io.grove.config.yaml.MapReader;
import io.grove.config.yaml.Problems;
import io.grove.config.yaml.YamlDocument;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.ProblemCode;
import io.grove.core.resource.ResourceType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads the broker's YAML configuration ({@code config/broker.yaml}): either the Resource Broker
 * form (queues, task types, a total limit) or the legacy Compaction Broker form
 * ({@code compaction_broker.queues} of queue ids and quotas), which is converted as the seed
 * describes. Strict: unknown keys, missing queues and bad values are reported with their lines.
 */
public final class BrokerConfigLoader {

    private BrokerConfigLoader() {
    }

    public static LoadResult<BrokerConfig> load(Path file) {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            return LoadResult.unreadable(file, e);
        }
    }

    public static LoadResult<BrokerConfig> parse(String text, String source) {
        Problems problems = new Problems();
        Optional<MapReader> parsed = YamlDocument.parse(text, problems);
        if (parsed.isEmpty()) {
            return new LoadResult<>(null, problems.list(), source);
        }
        MapReader root = parsed.get();
        BrokerConfig config;
        if (root.has("compaction_broker")) {
            config = legacy(root);
        } else {
            config = resourceBroker(root);
        }
        root.finish();
        if (problems.isEmpty() && config != null) {
            for (String problem : config.problems()) {
                problems.add("", null, ProblemCode.BAD_VALUE, problem, 0);
            }
        }
        return problems.isEmpty() ? new LoadResult<>(config, List.of(), source)
                : new LoadResult<>(null, problems.list(), source);
    }

    private static BrokerConfig resourceBroker(MapReader root) {
        BrokerResources total = resources(root, "resource_limit");
        List<QueueConfig> queues = new ArrayList<>();
        for (Map.Entry<String, MapReader> entry : root.namedMaps("queues").entrySet()) {
            MapReader queue = entry.getValue();
            Integer weight = queue.integer("weight");
            if (weight == null && !queue.has("weight")) {
                queue.problem(null, ProblemCode.MISSING_KEY, "queue '" + entry.getKey() + "' needs a weight");
            } else if (weight != null && weight < 1) {
                queue.problem("weight", ProblemCode.VALUE_OUT_OF_RANGE, "weight must be at least 1, got " + weight);
            }
            BrokerResources limit = resources(queue, "limit");
            queue.finish();
            if (weight != null && weight >= 1) {
                queues.add(new QueueConfig(entry.getKey(), weight, limit));
            }
        }
        List<TaskTypeConfig> types = new ArrayList<>();
        for (Map.Entry<String, MapReader> entry : root.namedMaps("task_types").entrySet()) {
            MapReader type = entry.getValue();
            String queue = type.string("queue");
            Duration duration = type.duration("default_duration");
            if (queue == null) {
                type.problem(null, ProblemCode.MISSING_KEY, "task type '" + entry.getKey() + "' needs a queue");
            }
            type.finish();
            if (queue != null) {
                types.add(new TaskTypeConfig(entry.getKey(), queue, duration == null ? 60_000 : duration.toMillis()));
            }
        }
        return new BrokerConfig(queues, types, total);
    }

    private static BrokerConfig legacy(MapReader root) {
        MapReader legacy = root.map("compaction_broker");
        if (legacy == null) {
            return null;
        }
        Map<Integer, Long> quotas = new TreeMap<>();
        for (MapReader queue : legacy.mapList("queues")) {
            Integer id = queue.integer("queue_id");
            Integer quota = queue.integer("quota");
            if (id == null || quota == null) {
                queue.problem(null, ProblemCode.MISSING_KEY, "a legacy queue needs queue_id and quota");
            } else if (id < 0 || quota < 1) {
                queue.problem(null, ProblemCode.VALUE_OUT_OF_RANGE, "queue_id must be >= 0 and quota >= 1, got "
                        + id + " and " + quota);
            } else if (quotas.put(id, (long) quota) != null) {
                queue.problem("queue_id", ProblemCode.BAD_VALUE, "queue_id " + id + " is declared twice");
            }
            queue.finish();
        }
        legacy.finish();
        for (String key : List.of("queues", "task_types", "resource_limit")) {
            if (root.has(key)) {
                root.problem(key, ProblemCode.BAD_VALUE, "'" + key + "' cannot be combined with 'compaction_broker'");
            }
        }
        return BrokerConfig.fromCompactionBroker(quotas);
    }

    /** CPU and memory of a resources mapping; absent ones are unlimited. */
    private static BrokerResources resources(MapReader reader, String key) {
        PartialResources partial = reader.resources(key);
        if (partial == null) {
            return BrokerResources.UNLIMITED;
        }
        Map<ResourceType, Double> values = partial.values();
        for (ResourceType type : values.keySet()) {
            if (type != ResourceType.CPU && type != ResourceType.MEMORY) {
                reader.problem(key, ProblemCode.BAD_VALUE, "the broker manages cpu and memory only, not "
                        + type.key());
            }
        }
        Double cpu = values.get(ResourceType.CPU);
        Double memory = values.get(ResourceType.MEMORY);
        return new BrokerResources(cpu == null ? BrokerResources.UNLIMITED_AMOUNT : Math.round(cpu * 1000),
                memory == null ? BrokerResources.UNLIMITED_AMOUNT : Math.round(memory));
    }
}
