package io.grove.server.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WaitingItemsTest {

    /** Long enough that a test taking it would time out: the waits below must end otherwise. */
    private static final long FOREVER_MS = TimeUnit.MINUTES.toMillis(10);

    @Test
    void aFullBatchIsTakenAtOnceAndLeftUntilWritten() throws Exception {
        WaitingItems<Integer> waiting = new WaitingItems<>();
        for (int i = 0; i < 5; i++) {
            waiting.add(i, false);
        }
        assertEquals(List.of(0, 1, 2), waiting.batch(3, FOREVER_MS, () -> false));
        assertEquals(List.of(0, 1, 2, 3, 4), waiting.snapshot(), "nothing goes before it is written");
        waiting.written(3);
        assertEquals(List.of(3, 4), waiting.snapshot());
    }

    @Test
    void anUrgentItemEndsTheWaitForAFullBatch() throws Exception {
        WaitingItems<String> waiting = new WaitingItems<>();
        waiting.add("record", false);
        CompletableFuture<List<String>> taken = CompletableFuture.supplyAsync(() -> {
            try {
                return waiting.batch(1000, FOREVER_MS, () -> false);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        waiting.add("barrier", true);
        assertEquals(List.of("record", "barrier"), taken.get(1, TimeUnit.MINUTES));
    }

    @Test
    void aWaitForAnItemEndsWhenOneComes() throws Exception {
        WaitingItems<String> waiting = new WaitingItems<>();
        assertEquals(false, waiting.awaitAny(0));
        CompletableFuture<Boolean> any = CompletableFuture.supplyAsync(() -> {
            try {
                return waiting.awaitAny(FOREVER_MS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        waiting.add("record", false);
        assertTrue(any.get(1, TimeUnit.MINUTES));
    }
}
