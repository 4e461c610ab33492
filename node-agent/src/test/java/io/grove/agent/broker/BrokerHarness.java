package io.grove.agent.broker;

import java.util.ArrayList;
import java.util.List;

/** Drives a broker on a fake clock and records what it says, so tests read like scripts. */
final class BrokerHarness {

    final ResourceBroker broker;
    final List<BrokerEvent> events = new ArrayList<>();
    long now;

    BrokerHarness(BrokerConfig config) {
        broker = new ResourceBroker(config, 0);
    }

    static BrokerConfig config(BrokerResources total, QueueConfig... queues) {
        List<TaskTypeConfig> types = new ArrayList<>();
        types.add(new TaskTypeConfig(BrokerConfig.UNKNOWN_TYPE, queues[0].name(), 1_000));
        for (QueueConfig queue : queues) {
            types.add(new TaskTypeConfig(queue.name(), queue.name(), 1_000));
        }
        return new BrokerConfig(List.of(queues), types, total);
    }

    static QueueConfig queue(String name, long weight, double cpuLimit) {
        return new QueueConfig(name, weight, limitCpu(cpuLimit));
    }

    static BrokerResources cpu(double cpu) {
        return new BrokerResources(Math.round(cpu * 1000), 0);
    }

    static BrokerResources limitCpu(double cpu) {
        return new BrokerResources(Math.round(cpu * 1000), BrokerResources.UNLIMITED_AMOUNT);
    }

    BrokerHarness advance(long ms) {
        now += ms;
        broker.tick(now);
        return this;
    }

    List<BrokerEvent> submit(String client, long id, String type, double cpu, long priority) {
        return record(broker.submit(now, client, new TaskRequest(id, type + "-" + id, cpu(cpu), type, priority,
                "cookie-" + id)));
    }

    List<BrokerEvent> submit(long id, String type, double cpu) {
        return submit("c", id, type, cpu, 0);
    }

    List<BrokerEvent> finish(long id) {
        return record(broker.finish(now, "c", id));
    }

    List<BrokerEvent> record(List<BrokerEvent> out) {
        events.addAll(out);
        return out;
    }

    /** Ids allocated so far, in order. */
    List<Long> allocated() {
        return events.stream().filter(e -> e instanceof BrokerEvent.Allocated)
                .map(e -> ((BrokerEvent.Allocated) e).taskId()).toList();
    }

    static List<Long> allocatedIn(List<BrokerEvent> out) {
        return out.stream().filter(e -> e instanceof BrokerEvent.Allocated)
                .map(e -> ((BrokerEvent.Allocated) e).taskId()).toList();
    }

    BrokerStatus.QueueState queueState(String name) {
        return broker.status(now).queues().stream().filter(q -> q.name().equals(name)).findFirst().orElseThrow();
    }
}
