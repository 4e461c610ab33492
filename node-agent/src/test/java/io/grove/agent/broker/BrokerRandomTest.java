package io.grove.agent.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random operations from several clients, invariants after every step: limits hold except
 * by the oversize rule, the node capacity always holds, no task runs twice at once, and when the
 * clients finish what runs, every task submitted ends allocated-and-finished or removed.
 */
class BrokerRandomTest {

    static List<Long> seeds() {
        List<Long> seeds = new ArrayList<>();
        for (long seed = 1; seed <= 40; seed++) {
            seeds.add(seed);
        }
        return seeds;
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void invariantsHold(long seed) {
        Random random = new Random(seed);
        BrokerConfig config = new BrokerConfig(List.of(
                new QueueConfig("q0", 1 + random.nextInt(100), new BrokerResources(2000, 8L << 30)),
                new QueueConfig("q1", 1 + random.nextInt(100), new BrokerResources(3000, BrokerResources.UNLIMITED_AMOUNT)),
                new QueueConfig("q2", 1 + random.nextInt(100), new BrokerResources(1000, 2L << 30))),
                List.of(new TaskTypeConfig("unknown", "q0", 1000), new TaskTypeConfig("a", "q1", 5000),
                        new TaskTypeConfig("b", "q2", 200)),
                new BrokerResources(5000, 16L << 30));
        ResourceBroker broker = new ResourceBroker(config, 0);
        String[] clients = {"c1", "c2", "c3"};
        String[] types = {"unknown", "a", "b", "undeclared"};
        Set<TaskKey> live = new HashSet<>();
        Set<TaskKey> running = new HashSet<>();
        Map<TaskKey, Integer> allocations = new HashMap<>();
        long now = 0;
        for (int step = 0; step < 3000; step++) {
            now += random.nextInt(300);
            String client = clients[random.nextInt(clients.length)];
            long id = 1 + random.nextInt(30);
            TaskKey key = new TaskKey(client, id);
            List<BrokerEvent> events;
            int op = random.nextInt(100);
            if (op < 40) {
                BrokerResources need = new BrokerResources(random.nextInt(4) * 500L, random.nextInt(3) * (1L << 30));
                events = broker.submit(now, client, new TaskRequest(id, "t", need, types[random.nextInt(4)],
                        random.nextInt(3), null));
                if (!hasError(events)) {
                    live.add(key);
                }
            } else if (op < 75) {
                events = broker.finish(now, client, id);
                if (!hasError(events)) {
                    live.remove(key);
                    running.remove(key);
                }
            } else if (op < 83) {
                events = broker.remove(now, client, id);
                if (!hasError(events)) {
                    live.remove(key);
                }
            } else if (op < 91) {
                // A running task's new resources apply at once, beyond the limits if need be; the
                // limits are checked at allocation, so running tasks are changed only with resubmit.
                boolean resubmit = running.contains(key) || random.nextBoolean();
                events = broker.update(now, client, id, new BrokerResources(random.nextInt(3) * 500L, 0),
                        types[random.nextInt(4)], random.nextInt(3), resubmit);
                if (!hasError(events) && resubmit) {
                    running.remove(key);
                }
            } else if (op < 95) {
                events = broker.setNodeCapacity(now, new BrokerResources(2000 + random.nextInt(5000), 20L << 30));
            } else if (op < 98) {
                events = broker.clientDied(now, client);
                live.removeIf(k -> k.client().equals(client));
                running.removeIf(k -> k.client().equals(client));
            } else {
                events = broker.configure(now, config).events();
            }
            for (BrokerEvent event : events) {
                if (event instanceof BrokerEvent.Allocated a) {
                    TaskKey allocated = new TaskKey(a.client(), a.taskId());
                    if (!running.add(allocated)) {
                        fail("seed " + seed + " step " + step + ": " + allocated + " allocated while running");
                    }
                    allocations.merge(allocated, 1, Integer::sum);
                }
            }
            check(broker.status(now), seed, step, running);
        }
        for (int round = 0; round < 10_000 && !live.isEmpty(); round++) {
            now += 100;
            broker.setNodeCapacity(now, BrokerResources.UNLIMITED).stream()
                    .filter(e -> e instanceof BrokerEvent.Allocated)
                    .forEach(e -> running.add(new TaskKey(e.client(), ((BrokerEvent.Allocated) e).taskId())));
            for (TaskKey key : new ArrayList<>(running)) {
                for (BrokerEvent e : broker.finish(now, key.client(), key.taskId())) {
                    if (e instanceof BrokerEvent.Allocated a) {
                        running.add(new TaskKey(a.client(), a.taskId()));
                    }
                }
                running.remove(key);
                live.remove(key);
            }
        }
        assertTrue(live.isEmpty(), "seed " + seed + ": tasks never allocated: " + live);
        assertEquals(0, broker.status(now).tasks().size(), "seed " + seed);
    }

    private static boolean hasError(List<BrokerEvent> events) {
        return events.stream().anyMatch(e -> e instanceof BrokerEvent.TaskError);
    }

    private static void check(BrokerStatus status, long seed, int step, Set<TaskKey> running) {
        String where = "seed " + seed + " step " + step + ": ";
        long inFly = status.tasks().stream().filter(TaskView::inFly).count();
        assertEquals(running.size(), inFly, where + "running tasks as the clients were told");
        if (inFly > 1) {
            assertTrue(fits(status.used(), status.config().resourceLimit()), where + "total limit " + status.used());
        }
        assertTrue(fits(status.used(), status.nodeCapacity()) || inFly == 0
                || status.tasks().stream().anyMatch(t -> t.inFly() && t.startedAt() < status.now()),
                where + "node capacity " + status.used() + " > " + status.nodeCapacity());
        for (BrokerStatus.QueueState queue : status.queues()) {
            if (queue.inFly() > 1) {
                assertTrue(fits(queue.used(), queue.limit()), where + "queue " + queue.name() + " " + queue.used());
            }
        }
    }

    private static boolean fits(BrokerResources used, BrokerResources limit) {
        return BrokerResources.ZERO.fitsWith(used, limit);
    }
}
