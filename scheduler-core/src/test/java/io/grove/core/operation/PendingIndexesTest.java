package io.grove.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingIndexesTest {

    private static List<Integer> all(PendingIndexes pending) {
        List<Integer> out = new ArrayList<>();
        pending.forEach(out::add);
        return out;
    }

    @Test
    void freshIndexesInOrderRetriesFirstRevivedOnesTakenOut() {
        PendingIndexes pending = new PendingIndexes(6);
        assertEquals(6, pending.size());
        assertEquals(0, pending.poll());
        assertEquals(1, pending.poll());
        pending.retry(0, 1);
        assertEquals(List.of(0, 2, 3, 4, 5), all(pending));
        assertTrue(pending.remove(4));
        assertFalse(pending.remove(4));
        assertFalse(pending.remove(1), "running, not pending");
        assertEquals(List.of(0, 2, 3, 5), all(pending));
        assertEquals(4, pending.size());
        assertEquals(0, pending.poll());
        assertEquals(2, pending.poll());
        assertEquals(3, pending.poll());
        assertEquals(5, pending.poll(), "the revived index is skipped");
        assertTrue(pending.isEmpty());
    }

    @Test
    void aRetriedIndexStartsAsItsNextAttemptAndIsForgottenOnceItRuns() {
        PendingIndexes pending = new PendingIndexes(3);
        int first = pending.poll();
        assertEquals(0, pending.startAttempt(first), "a fresh index starts as attempt 0");
        pending.retry(first, 1);
        pending.retry(first, 2);
        assertEquals(first, pending.poll());
        assertEquals(2, pending.startAttempt(first), "the highest next attempt counts");
        assertEquals(0, pending.startAttempt(first), "nothing is kept for a running index");
    }

    @Test
    void attemptsAreKeptOnlyForRetriesSoMemoryDoesNotGrowWithTheJobsDone() {
        PendingIndexes pending = new PendingIndexes(100_000);
        for (int i = 0; i < 100_000; i++) {
            pending.startAttempt(pending.poll());
        }
        pending.retry(7, 1);
        PendingIndexes.State state = pending.state(new int[0], 0);
        assertEquals(java.util.Map.of(7, 1), state.attempts());
    }

    @Test
    void restoringAnOldSnapshotKeepsTheAttemptsOfPendingIndexesOnly() {
        PendingIndexes pending = new PendingIndexes(10);
        pending.restore(new PendingIndexes.State(5, List.of(2), List.of(), java.util.Map.of(0, 1, 1, 1, 2, 3)));
        assertEquals(2, pending.poll());
        assertEquals(3, pending.startAttempt(2));
        assertEquals(0, pending.state(new int[0], 0).attempts().size(), "indexes 0 and 1 are done: nothing kept");
    }
}
