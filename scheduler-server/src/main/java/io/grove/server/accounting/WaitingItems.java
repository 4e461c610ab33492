package io.grove.server.accounting;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What waits for the ledger's writer, in order, in one array: the scheduler's thread adds at the
 * tail, the writer copies a batch from the head and removes it only once it is written, so that a
 * snapshot taken meanwhile still sees it. No object per item beyond the item itself (queue nodes
 * lived as long as their items and were copied out of the young generation with them).
 */
final class WaitingItems<T> {

    private final ArrayDeque<T> items = new ArrayDeque<>();
    /** Whether the writer waits for an item ({@code 1}) or for a full batch ({@code batch}); 0 when busy. */
    private int awaited;
    /** An urgent item came since the last batch was taken: the next one is taken without waiting. */
    private boolean hurry;

    /** Adds an item; {@code urgent} ends the writer's wait for a full batch at once. */
    synchronized void add(T item, boolean urgent) {
        items.addLast(item);
        hurry |= urgent;
        if (awaited > 0 && (urgent || items.size() >= awaited)) {
            notifyAll();
        }
    }

    /**
     * Up to {@code max} items from the head, left in place until {@link #written}: at once when
     * {@code max} wait or an urgent one came, else once {@code waitMs} passed (or {@code stop}
     * returns true); empty when none came.
     */
    synchronized List<T> batch(int max, long waitMs, BooleanSupplier stop) throws InterruptedException {
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        for (long left = waitMs; items.size() < max && !hurry && left > 0 && !stop.getAsBoolean();
                left = (deadline - System.nanoTime()) / 1_000_000) {
            awaited = max;
            try {
                wait(left);
            } finally {
                awaited = 0;
            }
        }
        hurry = false;
        List<T> batch = new ArrayList<>(Math.min(max, items.size()));
        Iterator<T> head = items.iterator();
        while (batch.size() < max && head.hasNext()) {
            batch.add(head.next());
        }
        return batch;
    }

    /** Blocks until an item waits (or {@code waitMs} passed); whether one does. */
    synchronized boolean awaitAny(long waitMs) throws InterruptedException {
        if (items.isEmpty() && waitMs > 0) {
            awaited = 1;
            try {
                wait(waitMs);
            } finally {
                awaited = 0;
            }
        }
        return !items.isEmpty();
    }

    /** The first {@code count} items were written: they go. */
    synchronized void written(int count) {
        for (int i = 0; i < count; i++) {
            items.pollFirst();
        }
    }

    /** The items waiting now, in order (a copy). */
    synchronized List<T> snapshot() {
        return new ArrayList<>(items);
    }

    synchronized int size() {
        return items.size();
    }

    synchronized void wake() {
        notifyAll();
    }
}
