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
        pending.retry(0);
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
    void attemptsAreCountedPerIndex() {
        PendingIndexes pending = new PendingIndexes(3);
        assertEquals(0, pending.attempts(1));
        pending.attempted(1, 0);
        pending.attempted(1, 1);
        assertEquals(2, pending.attempts(1));
    }
}
