package io.grove.agent.net;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerEvent;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.broker.QueueConfig;
import io.grove.agent.broker.TaskRequest;
import io.grove.agent.broker.TaskTypeConfig;
import io.grove.protocol.broker.BrokerMessage;
import java.util.Locale;

/** Between the broker's wire messages and its core types. */
final class BrokerWire {

    private BrokerWire() {
    }

    /** A task's resources: absent ones are 0. */
    static BrokerResources task(BrokerMessage.Amounts amounts) {
        if (amounts == null) {
            return BrokerResources.ZERO;
        }
        return new BrokerResources(amounts.cpu() == null ? 0 : Math.round(amounts.cpu() * 1000),
                amounts.memory() == null ? 0 : amounts.memory());
    }

    /** A limit: absent resources are unlimited. */
    static BrokerResources limit(BrokerMessage.Amounts amounts) {
        if (amounts == null) {
            return BrokerResources.UNLIMITED;
        }
        return new BrokerResources(amounts.cpu() == null ? BrokerResources.UNLIMITED_AMOUNT : Math.round(amounts.cpu() * 1000),
                amounts.memory() == null ? BrokerResources.UNLIMITED_AMOUNT : amounts.memory());
    }

    static TaskRequest request(BrokerMessage.Submit submit) {
        return new TaskRequest(submit.taskId(), submit.name(), task(submit.resources()), submit.taskType(),
                submit.priority(), submit.cookie());
    }

    static BrokerConfig config(BrokerMessage.Configure configure) {
        return new BrokerConfig(
                configure.queues().stream().map(q -> new QueueConfig(q.name(), q.weight(), limit(q.limit()))).toList(),
                configure.taskTypes().stream().map(t -> new TaskTypeConfig(t.name(), t.queue(), t.defaultDurationMs()))
                        .toList(),
                limit(configure.resourceLimit()));
    }

    /** The message for a client, or {@code null} for events clients are not told about. */
    static BrokerMessage toClient(BrokerEvent event) {
        if (event instanceof BrokerEvent.Allocated allocated) {
            return new BrokerMessage.Allocated(allocated.taskId(), allocated.cookie());
        }
        if (event instanceof BrokerEvent.TaskError error) {
            return new BrokerMessage.TaskError(error.taskId(), error.code().name().toLowerCase(Locale.ROOT),
                    error.message(), error.cookie());
        }
        return null;
    }
}
