package io.grove.agent.broker;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The broker's configuration (docs/broker.md; the original calls it {@code TResourceBrokerConfig}): queues, task types and
 * the total resource limit of all queues together.
 *
 * @param queues the queues, in order
 * @param taskTypes the task types; one must be {@value #UNKNOWN_TYPE}
 * @param resourceLimit what all running tasks may hold together; a larger task runs alone
 */
public record BrokerConfig(List<QueueConfig> queues, List<TaskTypeConfig> taskTypes, BrokerResources resourceLimit) {

    /** The type every task of an undeclared type is counted as. */
    public static final String UNKNOWN_TYPE = "unknown";

    /** Grove's own node-local work: preparing a job's sandbox. */
    public static final String SANDBOX_PREPARE = "grove_sandbox_prepare";
    /** Grove's own node-local work: archiving a finished job's logs. */
    public static final String LOG_ARCHIVE = "grove_log_archive";
    /** Grove's own node-local work: removing sandboxes and expired logs. */
    public static final String SANDBOX_CLEANUP = "grove_sandbox_cleanup";
    /** Grove's own node-local work: pulling and unpacking a container image. */
    public static final String IMAGE_PULL = "grove_image_pull";
    /** The queue of Grove's node-local work in the built-in configuration. */
    public static final String NODE_QUEUE = "queue_grove_node";
    /** The queue of image pulls in the built-in configuration: two at once (32 MiB each). */
    public static final String IMAGE_QUEUE = "queue_grove_images";

    public BrokerConfig {
        queues = List.copyOf(queues);
        taskTypes = List.copyOf(taskTypes);
        resourceLimit = resourceLimit == null ? BrokerResources.UNLIMITED : resourceLimit;
    }

    /** Every problem of this configuration, empty when it can be applied. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        Set<String> queueNames = new HashSet<>();
        for (QueueConfig queue : queues) {
            if (!queueNames.add(queue.name())) {
                problems.add("queue '" + queue.name() + "' is declared twice");
            }
        }
        if (queues.isEmpty()) {
            problems.add("there are no queues");
        }
        Set<String> typeNames = new HashSet<>();
        for (TaskTypeConfig type : taskTypes) {
            if (!typeNames.add(type.name())) {
                problems.add("task type '" + type.name() + "' is declared twice");
            }
            if (!queueNames.contains(type.queue())) {
                problems.add("task type '" + type.name() + "' refers to queue '" + type.queue()
                        + "', which is not declared (queues: " + String.join(", ", queueNames) + ")");
            }
        }
        if (!typeNames.contains(UNKNOWN_TYPE)) {
            problems.add("task type '" + UNKNOWN_TYPE + "' is required: tasks of undeclared types go to its queue");
        }
        return problems;
    }

    /** The task types of the agent's own node-local work, in the built-in queue of that work. */
    static final List<TaskTypeConfig> NODE_TASK_TYPES = List.of(new TaskTypeConfig(SANDBOX_PREPARE, NODE_QUEUE, 100),
            new TaskTypeConfig(LOG_ARCHIVE, NODE_QUEUE, 500), new TaskTypeConfig(SANDBOX_CLEANUP, NODE_QUEUE, 200),
            new TaskTypeConfig(IMAGE_PULL, IMAGE_QUEUE, 30_000));

    /**
     * This configuration with the agent's own task types declared: those it lacks are added, in
     * {@value #NODE_QUEUE} (added too when missing), so that a legacy or custom configuration never
     * counts the agent's own work as tasks of undeclared types ({@code MissingTaskTypeCounter}).
     */
    public BrokerConfig withNodeTasks() {
        Map<String, TaskTypeConfig> types = typesByName();
        List<TaskTypeConfig> added = NODE_TASK_TYPES.stream().filter(t -> !types.containsKey(t.name())).toList();
        if (added.isEmpty()) {
            return this;
        }
        List<QueueConfig> allQueues = new ArrayList<>(queues);
        for (QueueConfig own : List.of(nodeQueue(), imageQueue())) {
            if (queues.stream().noneMatch(q -> q.name().equals(own.name()))
                    && added.stream().anyMatch(t -> t.queue().equals(own.name()))) {
                allQueues.add(own);
            }
        }
        List<TaskTypeConfig> allTypes = new ArrayList<>(taskTypes);
        allTypes.addAll(added);
        return new BrokerConfig(allQueues, allTypes, resourceLimit);
    }

    private static QueueConfig nodeQueue() {
        return new QueueConfig(NODE_QUEUE, 50, new BrokerResources(BrokerResources.UNLIMITED_AMOUNT, 64L << 20));
    }

    private static QueueConfig imageQueue() {
        return new QueueConfig(IMAGE_QUEUE, 50, new BrokerResources(BrokerResources.UNLIMITED_AMOUNT, 64L << 20));
    }

    /** The task types by name. */
    public Map<String, TaskTypeConfig> typesByName() {
        Map<String, TaskTypeConfig> byName = new LinkedHashMap<>();
        taskTypes.forEach(type -> byName.put(type.name(), type));
        return byName;
    }

    /**
     * The built-in configuration: the seed's default configuration unchanged (seven queues, eleven
     * task types, a total of 10 CPU and 16 GiB), plus queues for Grove's own node-local work and
     * its image pulls.
     */
    public static BrokerConfig builtIn() {
        List<QueueConfig> queues = new ArrayList<>(List.of(
                cpuQueue("queue_default", 30, 2),
                cpuQueue("queue_compaction_gen0", 100, 2),
                cpuQueue("queue_compaction_gen1", 100, 2),
                cpuQueue("queue_compaction_gen2", 100, 1),
                cpuQueue("queue_compaction_gen3", 100, 1),
                cpuQueue("queue_transaction", 100, 4),
                cpuQueue("queue_background_compaction", 10, 1)));
        queues.add(nodeQueue());
        queues.add(imageQueue());
        List<TaskTypeConfig> types = new ArrayList<>(List.of(
                new TaskTypeConfig(UNKNOWN_TYPE, "queue_default", 60_000),
                new TaskTypeConfig("compaction_gen0", "queue_compaction_gen0", 10_000),
                new TaskTypeConfig("compaction_gen1", "queue_compaction_gen1", 30_000),
                new TaskTypeConfig("compaction_gen2", "queue_compaction_gen2", 120_000),
                new TaskTypeConfig("compaction_gen3", "queue_compaction_gen3", 600_000),
                new TaskTypeConfig("transaction", "queue_transaction", 600_000),
                new TaskTypeConfig("background_compaction", "queue_background_compaction", 60_000),
                new TaskTypeConfig("background_compaction_gen0", "queue_background_compaction", 10_000),
                new TaskTypeConfig("background_compaction_gen1", "queue_background_compaction", 20_000),
                new TaskTypeConfig("background_compaction_gen2", "queue_background_compaction", 60_000),
                new TaskTypeConfig("background_compaction_gen3", "queue_background_compaction", 300_000)));
        types.addAll(NODE_TASK_TYPES);
        return new BrokerConfig(queues, types, new BrokerResources(10_000, 17_179_869_184L));
    }

    /**
     * The broker configuration of a legacy Compaction Broker configuration, as the seed converts
     * it: queue {@code i} with quota {@code q} becomes {@code queue_legacy<i>} (weight 100, CPU
     * limit {@code q}) with task type {@code compaction_gen<i>}; {@code queue_default} (weight 30,
     * CPU 2) takes {@code unknown}; every default duration is 30 s; the total CPU limit is the sum
     * of the quotas plus 2.
     *
     * @param quotas queue id to quota
     */
    public static BrokerConfig fromCompactionBroker(Map<Integer, Long> quotas) {
        List<QueueConfig> queues = new ArrayList<>();
        List<TaskTypeConfig> types = new ArrayList<>();
        long total = 2;
        for (Map.Entry<Integer, Long> entry : new TreeMap<>(quotas).entrySet()) {
            String queue = "queue_legacy" + entry.getKey();
            queues.add(cpuQueue(queue, 100, entry.getValue()));
            types.add(new TaskTypeConfig("compaction_gen" + entry.getKey(), queue, 30_000));
            total += entry.getValue();
        }
        queues.add(cpuQueue("queue_default", 30, 2));
        types.add(new TaskTypeConfig(UNKNOWN_TYPE, "queue_default", 30_000));
        return new BrokerConfig(queues, types, new BrokerResources(total * 1000, BrokerResources.UNLIMITED_AMOUNT));
    }

    private static QueueConfig cpuQueue(String name, long weight, long cpus) {
        return new QueueConfig(name, weight, new BrokerResources(cpus * 1000, BrokerResources.UNLIMITED_AMOUNT));
    }
}
