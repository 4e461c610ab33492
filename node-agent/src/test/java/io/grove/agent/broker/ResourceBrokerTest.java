package io.grove.agent.broker;

import static io.grove.agent.broker.BrokerHarness.allocatedIn;
import static io.grove.agent.broker.BrokerHarness.config;
import static io.grove.agent.broker.BrokerHarness.cpu;
import static io.grove.agent.broker.BrokerHarness.limitCpu;
import static io.grove.agent.broker.BrokerHarness.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One test per rule of the broker (docs/broker.md), on a fake clock. */
class ResourceBrokerTest {

    @Test
    void lowerPriorityFirstThenSubmissionOrder() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 1)));
        h.submit(1, "q", 1);
        h.advance(10).submit("c", 2, "q", 1, 5);
        h.advance(10).submit("c", 3, "q", 1, 1);
        h.advance(10).submit("c", 4, "q", 1, 1);
        assertEquals(List.of(1L), h.allocated());
        h.finish(1);
        h.finish(3);
        h.finish(4);
        assertEquals(List.of(1L, 3L, 4L, 2L), h.allocated());
    }

    @Test
    void queueLimitHoldsTasksBack() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 2)));
        for (long id = 1; id <= 4; id++) {
            h.submit(id, "q", 1);
        }
        assertEquals(List.of(1L, 2L), h.allocated());
        assertEquals(2, h.queueState("q").waiting());
        assertEquals(List.of(3L), allocatedIn(h.finish(1)));
    }

    @Test
    void taskLargerThanItsQueueLimitRunsOnlyAloneInItsQueue() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 2), queue("other", 1, 5)));
        h.submit(1, "q", 1);
        h.submit(2, "q", 3);
        h.submit(3, "other", 1);
        assertEquals(List.of(1L, 3L), h.allocated(), "the oversize task waits while its queue runs something");
        assertEquals(List.of(2L), allocatedIn(h.finish(1)), "then runs alone in its queue, beside other queues");
        assertEquals(3000, h.queueState("q").used().cpuMillis());
    }

    @Test
    void taskLargerThanTheTotalRunsOnlyWhenNothingRuns() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(4), queue("big", 1, 100), queue("small", 1, 100)));
        h.submit(1, "small", 1);
        h.submit(2, "big", 6);
        h.submit(3, "small", 1);
        assertEquals(List.of(1L), h.allocated(), "the big task blocks CPU for later tasks so it cannot starve");
        assertEquals(List.of(2L), allocatedIn(h.advance(10_000).finish(1)), "it runs once nothing else does");
        assertEquals(List.of(3L), allocatedIn(h.finish(2)));
    }

    @Test
    void weightsShareTheResources() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(4), queue("light", 1, 100), queue("heavy", 3, 100)));
        Map<Long, Long> endsAt = new HashMap<>();
        Map<String, Integer> started = new HashMap<>();
        long next = 1;
        for (int i = 0; i < 400; i++) {
            h.submit(next++, "light", 1);
            h.submit(next++, "heavy", 1);
        }
        for (int second = 0; second < 100; second++) {
            for (BrokerEvent e : new ArrayList<>(h.events)) {
                if (e instanceof BrokerEvent.Allocated a && !endsAt.containsKey(a.taskId())) {
                    endsAt.put(a.taskId(), h.now + 1000);
                    started.merge(a.queue(), 1, Integer::sum);
                }
            }
            h.advance(1000);
            for (Map.Entry<Long, Long> entry : endsAt.entrySet()) {
                if (entry.getValue() == h.now) {
                    h.finish(entry.getKey());
                }
            }
        }
        double ratio = (double) started.get("heavy") / started.get("light");
        assertEquals(3.0, ratio, 0.15, "heavy " + started.get("heavy") + ", light " + started.get("light"));
    }

    @Test
    void undeclaredTypeGoesToTheUnknownQueueAndIsCounted() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("default", 1, 5), queue("q", 1, 5)));
        h.submit(1, "no_such_type", 1);
        BrokerEvent.Allocated allocated = (BrokerEvent.Allocated) h.events.get(0);
        assertEquals("default", allocated.queue());
        assertEquals(BrokerConfig.UNKNOWN_TYPE, allocated.type());
        assertEquals(1, h.broker.status(h.now).missingTaskTypes());
        h.submit(2, "q", 1);
        assertEquals(1, h.broker.status(h.now).missingTaskTypes());
    }

    record ErrorCase(String name, java.util.function.Function<BrokerHarness, List<BrokerEvent>> act,
            BrokerErrorCode code) {
    }

    @Test
    void everyErrorCode() {
        List<ErrorCase> cases = List.of(
                new ErrorCase("submit with a used id", h -> h.submit(1, "q", 1), BrokerErrorCode.ALREADY_EXISTS),
                new ErrorCase("update an unknown task", h -> h.broker.update(h.now, "c", 9, cpu(1), "q", 0, false),
                        BrokerErrorCode.UNKNOWN_TASK),
                new ErrorCase("update the cookie of an unknown task", h -> h.broker.updateCookie(h.now, "c", 9, "x"),
                        BrokerErrorCode.UNKNOWN_TASK),
                new ErrorCase("remove an unknown task", h -> h.broker.remove(h.now, "c", 9), BrokerErrorCode.UNKNOWN_TASK),
                new ErrorCase("finish an unknown task", h -> h.finish(9), BrokerErrorCode.UNKNOWN_TASK),
                new ErrorCase("another client's id is unknown", h -> h.broker.finish(h.now, "other", 1),
                        BrokerErrorCode.UNKNOWN_TASK),
                new ErrorCase("remove a running task", h -> h.broker.remove(h.now, "c", 1), BrokerErrorCode.TASK_IN_FLY),
                new ErrorCase("finish a queued task", h -> h.finish(2), BrokerErrorCode.TASK_IN_QUEUE));
        for (ErrorCase c : cases) {
            BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 1)));
            h.submit(1, "q", 1);
            h.submit(2, "q", 1);
            List<BrokerEvent> out = c.act().apply(h);
            assertEquals(1, out.size(), c.name());
            BrokerEvent.TaskError error = (BrokerEvent.TaskError) out.get(0);
            assertEquals(c.code(), error.code(), c.name() + ": " + error.message());
            assertTrue(h.broker.isRunning("c", 1), c.name() + ": nothing changed");
        }
    }

    @Test
    void submitWithIdZeroGetsDistinctIdsAndTheCookieIdentifiesIt() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 10)));
        h.submit(1, "q", 1);
        h.submit(0, "q", 1);
        h.submit(0, "q", 1);
        List<Long> ids = h.allocated();
        assertEquals(3, ids.stream().distinct().count(), ids.toString());
        BrokerEvent.Allocated second = (BrokerEvent.Allocated) h.events.get(1);
        assertEquals("cookie-0", second.cookie());
    }

    @Test
    void resubmitPutsARunningTaskBackAndItIsAllocatedAgain() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 1)));
        h.submit(1, "q", 1);
        h.submit("c", 2, "q", 1, 5);
        List<BrokerEvent> out = h.record(h.broker.update(h.now, "c", 1, cpu(1), "q", 9, true));
        assertEquals(List.of(2L), allocatedIn(out), "the resubmitted task queues behind the better priority");
        assertFalse(h.broker.isRunning("c", 1));
        assertEquals(List.of(1L), allocatedIn(h.finish(2)));
    }

    @Test
    void updateChangesPriorityTypeAndResourcesOfAQueuedTask() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 1), queue("r", 1, 4)));
        h.submit(1, "q", 1);
        h.submit(2, "q", 1);
        List<BrokerEvent> out = h.broker.update(h.now, "c", 2, cpu(3), "r", 0, false);
        assertEquals(List.of(2L), allocatedIn(out), "moved to queue r, where it fits");
        assertEquals(3000, h.queueState("r").used().cpuMillis());
        h.broker.updateCookie(h.now, "c", 2, "new");
        assertEquals(List.of(), h.broker.updateCookie(h.now, "c", 2, "newer"));
    }

    @Test
    void configureMovesEveryTaskToItsNewQueue() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 1), queue("r", 1, 1)));
        h.submit(1, "q", 1);
        h.submit(2, "q", 1);
        h.submit(3, "q", 1);
        BrokerConfig next = new BrokerConfig(List.of(queue("q", 1, 1), queue("wide", 1, 3)),
                List.of(new TaskTypeConfig("unknown", "q", 1000), new TaskTypeConfig("q", "wide", 1000)), limitCpu(10));
        ResourceBroker.ConfigureResult result = h.broker.configure(h.now, next);
        assertTrue(result.success(), result.message());
        assertEquals(List.of(2L, 3L), allocatedIn(result.events()));
        assertEquals(3, h.queueState("wide").inFly());
        assertEquals(0, h.queueState("q").inFly());

        BrokerConfig broken = new BrokerConfig(List.of(queue("q", 1, 1)),
                List.of(new TaskTypeConfig("q", "missing", 1000)), limitCpu(10));
        ResourceBroker.ConfigureResult refused = h.broker.configure(h.now, broken);
        assertFalse(refused.success());
        assertTrue(refused.message().contains("queue 'missing', which is not declared"), refused.message());
        assertTrue(refused.message().contains("task type 'unknown' is required"), refused.message());
        assertEquals(3, h.queueState("wide").inFly(), "a refused configuration changes nothing");
    }

    @Test
    void measuredDurationsReplaceTheDefault() {
        BrokerConfig config = new BrokerConfig(List.of(queue("q", 1, 10)),
                List.of(new TaskTypeConfig("unknown", "q", 60_000)), limitCpu(10));
        BrokerHarness h = new BrokerHarness(config);
        assertEquals(60_000, planned(h));
        h.submit(1, "unknown", 1);
        h.advance(10_000).finish(1);
        assertEquals((19 * 60_000 + 10_000) / 20, planned(h));
        for (long id = 2; id <= 21; id++) {
            h.submit(id, "unknown", 1);
            h.advance(10_000).finish(id);
        }
        assertEquals(10_000, planned(h), "after twenty tasks only measurements count");
        h.submit(99, "unknown", 1);
        assertEquals(h.now + 10_000, h.broker.status(h.now).tasks().get(0).plannedEnd());
    }

    private static long planned(BrokerHarness h) {
        return h.broker.status(h.now).types().get(0).plannedDurationMs();
    }

    @Test
    void plannedConsumptionCountsRunningTasksByTheirPlannedDuration() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(4), queue("q", 2, 4)));
        h.submit(1, "q", 2);
        BrokerStatus.QueueState q = h.queueState("q");
        assertEquals(0.5 * 1000 / 2, q.planned(), 1e-9, "dominant share 2/4 for the 1 s default, over weight 2");
        h.advance(3000).finish(1);
        q = h.queueState("q");
        assertEquals(0.5 * 3000 / 2, q.real(), 1e-9, "real: the integral of 2/4 over 3 s, over weight 2");
        assertEquals(q.real(), q.planned(), 1e-9, "a finished task counts by its actual time");
    }

    @Test
    void aQueueThatBecomesActiveAgainIsBroughtLevel() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(2), queue("busy", 1, 2), queue("idle", 1, 2)));
        for (long id = 1; id <= 6; id++) {
            h.submit(id, "busy", 1);
        }
        h.advance(100_000);
        double busyReal = h.queueState("busy").real();
        assertEquals(100_000, busyReal, 1e-6, "both CPUs for 100 s");
        for (long id = 11; id <= 14; id++) {
            h.submit(id, "idle", 1);
        }
        assertEquals(busyReal, h.queueState("idle").real(), 1e-6, "the woken queue starts level with the active one");
        int before = h.allocated().size();
        for (int i = 0; i < 6; i++) {
            TaskView oldest = h.broker.status(h.now).tasks().stream().filter(TaskView::inFly)
                    .min(java.util.Comparator.comparingLong(TaskView::startedAt)).orElseThrow();
            h.advance(1000).finish(oldest.taskId());
        }
        List<Long> order = h.allocated().subList(before, h.allocated().size());
        assertEquals(List.of(11L, 12L, 3L, 13L, 4L, 14L), order, "after one catch-up they alternate");
    }

    @Test
    void nodeCapacityHoldsTasksBackEvenOversizeOnes() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(2), queue("q", 1, 1)));
        h.broker.setNodeCapacity(h.now, new BrokerResources(500, BrokerResources.UNLIMITED_AMOUNT));
        h.submit(1, "q", 1);
        assertEquals(List.of(), h.allocated(), "1 CPU does not fit a node capacity of 0.5");
        assertEquals(List.of(1L), allocatedIn(h.broker.setNodeCapacity(h.now, limitCpu(1))));
    }

    @Test
    void aDeadClientsTasksAllGo() {
        BrokerHarness h = new BrokerHarness(config(limitCpu(10), queue("q", 1, 1)));
        h.submit(1, "q", 1);
        h.submit(2, "q", 1);
        h.submit("other", 3, "q", 1, 0);
        List<BrokerEvent> out = h.broker.clientDied(h.now, "c");
        assertTrue(out.get(0) instanceof BrokerEvent.Finished f && f.cancelled() && f.taskId() == 1, out.toString());
        assertEquals(List.of(3L), allocatedIn(out));
        assertEquals(1, h.broker.status(h.now).tasks().size());
        assertEquals(1000, h.broker.status(h.now).types().get(1).plannedDurationMs(),
                "a cancelled task does not enter the statistics");
    }
}
