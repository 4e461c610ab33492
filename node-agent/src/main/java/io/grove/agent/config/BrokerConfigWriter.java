package io.grove.agent.config;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.broker.QueueConfig;
import io.grove.agent.broker.TaskTypeConfig;
import io.grove.config.yaml.Durations;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * A broker configuration as YAML in the Resource Broker form, so that a converted legacy
 * configuration can be shown and copied (the seed's advice: run with the old form, take the new
 * one from the monitoring page).
 */
public final class BrokerConfigWriter {

    private BrokerConfigWriter() {
    }

    public static String toYaml(BrokerConfig config) {
        StringBuilder out = new StringBuilder();
        out.append("resource_limit: ").append(resources(config.resourceLimit())).append('\n');
        out.append("queues:\n");
        for (QueueConfig queue : config.queues()) {
            out.append("  ").append(queue.name()).append(": {weight: ").append(queue.weight());
            if (!queue.limit().equals(BrokerResources.UNLIMITED)) {
                out.append(", limit: ").append(resources(queue.limit()));
            }
            out.append("}\n");
        }
        out.append("task_types:\n");
        for (TaskTypeConfig type : config.taskTypes()) {
            out.append("  ").append(type.name()).append(": {queue: ").append(type.queue())
                    .append(", default_duration: ").append(Durations.format(Duration.ofMillis(type.defaultDurationMs())))
                    .append("}\n");
        }
        return out.toString();
    }

    static String resources(BrokerResources resources) {
        StringBuilder out = new StringBuilder("{");
        if (resources.cpuMillis() != BrokerResources.UNLIMITED_AMOUNT) {
            out.append("cpu: ").append(BigDecimal.valueOf(resources.cpuMillis(), 3).stripTrailingZeros().toPlainString());
        }
        if (resources.memory() != BrokerResources.UNLIMITED_AMOUNT) {
            out.append(out.length() > 1 ? ", " : "").append("memory: ").append(resources.memory());
        }
        return out.append('}').toString();
    }
}
