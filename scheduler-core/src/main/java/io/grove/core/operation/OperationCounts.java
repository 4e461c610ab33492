package io.grove.core.operation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Operation-count limits of one tree, exactly as docs/scheduling.md#operation-count-limits describes them: counters on every pool including
 * its descendants, {@code max_operation_count} checked at submit over the whole path, and FIFO
 * queues of pending operations at the lowest pool whose {@code max_running_operation_count} is
 * reached. Lightweight operations never pend and count apart.
 */
public final class OperationCounts {

    private static final class Counter {
        int operations;
        int running;
        int lightweight;
        final ArrayDeque<String> pending = new ArrayDeque<>();
    }

    /** Where an operation is and how it counts. */
    private record Entry(String pool, boolean lightweight) {
    }

    private final TreePools pools;
    private final Map<String, Counter> counters = new HashMap<>();
    private final Map<String, Entry> operations = new HashMap<>();
    private final Map<String, String> queuedAt = new HashMap<>();

    public OperationCounts(TreePools pools) {
        this.pools = pools;
    }

    private Counter counter(String pool) {
        return counters.computeIfAbsent(pool, p -> new Counter());
    }

    /**
     * Refuses an operation if a pool on the path is at its {@code max_operation_count}.
     *
     * @throws SubmitException {@link SubmitError#TOO_MANY_OPERATIONS} with the reference's message
     */
    public void checkCanAdd(String pool) {
        for (String at : pools.pathToRoot(pool)) {
            Counter counter = counters.get(at);
            int count = counter == null ? 0 : counter.operations;
            int limit = pools.maxOperationCount(at);
            if (count >= limit) {
                throw new SubmitException(SubmitError.TOO_MANY_OPERATIONS,
                        "Limit for the number of concurrent operations " + limit + " for pool \"" + at + "\" in tree \""
                                + pools.name() + "\" has been reached",
                        Map.of("pool", at, "pool_tree", pools.name(), "limit", limit, "operation_count", count));
            }
        }
    }

    /**
     * Counts a new operation in; it runs unless a running limit on its path holds it.
     *
     * @return {@code true} if the operation runs, {@code false} if it is pending
     */
    public boolean add(String operation, String pool, boolean lightweight) {
        return add(operation, pool, lightweight, true);
    }

    /** As {@link #add(String, String, boolean)}; with {@code enforceLimit} false, never refuses (revival). */
    boolean add(String operation, String pool, boolean lightweight, boolean enforceLimit) {
        if (enforceLimit) {
            checkCanAdd(pool);
        }
        operations.put(operation, new Entry(pool, lightweight));
        for (String at : pools.pathToRoot(pool)) {
            counter(at).operations++;
        }
        if (lightweight) {
            for (String at : pools.pathToRoot(pool)) {
                counter(at).lightweight++;
            }
            return true;
        }
        String violating = lowestViolatingPool(pool);
        if (violating == null) {
            markRunning(pool);
            return true;
        }
        counter(violating).pending.addLast(operation);
        queuedAt.put(operation, violating);
        return false;
    }

    private String lowestViolatingPool(String pool) {
        for (String at : pools.pathToRoot(pool)) {
            Counter counter = counters.get(at);
            if (counter != null && counter.running >= pools.maxRunningOperationCount(at)) {
                return at;
            }
        }
        return null;
    }

    /** Adds ({@code sign} 1) or removes (-1) an operation at one pool: always its count, and its running or lightweight count. */
    private void count(String pool, int sign, boolean lightweight, boolean running) {
        Counter counter = counter(pool);
        counter.operations += sign;
        if (lightweight) {
            counter.lightweight += sign;
        } else if (running) {
            counter.running += sign;
        }
    }

    private void markRunning(String pool) {
        for (String at : pools.pathToRoot(pool)) {
            counter(at).running++;
        }
    }

    /**
     * Counts an operation out (finished, aborted or moved) and starts the pending operations that
     * now have room, in queue order.
     *
     * @return the operations that went from pending to running
     */
    public List<String> remove(String operation) {
        Entry entry = operations.remove(operation);
        if (entry == null) {
            return List.of();
        }
        String queue = queuedAt.remove(operation);
        boolean wasRunning = queue == null && !entry.lightweight();
        for (String at : pools.pathToRoot(entry.pool())) {
            count(at, -1, entry.lightweight(), wasRunning);
        }
        if (queue != null) {
            counter(queue).pending.remove(operation);
        }
        List<String> activated = new ArrayList<>();
        if (wasRunning) {
            for (String at : pools.pathToRoot(entry.pool())) {
                activateQueued(at, activated);
            }
        }
        releaseIfEmpty(entry.pool());
        return activated;
    }

    private void releaseIfEmpty(String pool) {
        for (String at : pools.pathToRoot(pool)) {
            Counter counter = counters.get(at);
            if (pools.isEphemeral(at) && (counter == null || counter.operations == 0)) {
                counters.remove(at);
                pools.release(at);
            }
        }
    }

    /** Takes up to {@code max - running} operations from the pool's queue; blocked ones move on. */
    private void activateQueued(String pool, List<String> activated) {
        Counter counter = counters.get(pool);
        if (counter == null) {
            return;
        }
        int room = pools.maxRunningOperationCount(pool) - counter.running;
        int attempts = counter.pending.size();
        Iterator<String> queue = List.copyOf(counter.pending).iterator();
        while (room > 0 && attempts-- > 0 && queue.hasNext()) {
            String operation = queue.next();
            Entry entry = operations.get(operation);
            String violating = lowestViolatingPool(entry.pool());
            if (violating == null) {
                counter.pending.remove(operation);
                queuedAt.remove(operation);
                markRunning(entry.pool());
                activated.add(operation);
                room--;
            } else if (!violating.equals(pool)) {
                counter.pending.remove(operation);
                counter(violating).pending.addLast(operation);
                queuedAt.put(operation, violating);
            }
        }
    }

    /**
     * Moves a counted operation to another pool: counters change only where the two paths differ;
     * a running operation stays running, a pending one queues again where the new path holds it.
     *
     * @return operations that started because the old path has room now
     * @throws SubmitException with the reference's messages when the new path has no room
     */
    public List<String> move(String operation, String pool, boolean lightweight) {
        Entry entry = operations.get(operation);
        if (entry == null) {
            throw new IllegalArgumentException("operation " + operation + " is not counted in tree " + pools.name());
        }
        List<String> oldPath = pools.pathToRoot(entry.pool());
        List<String> newPath = pools.pathToRoot(pool);
        boolean wasRunning = !queuedAt.containsKey(operation) && !entry.lightweight();
        for (String at : newPath) {
            if (oldPath.contains(at)) {
                continue;
            }
            Counter counter = counters.get(at);
            if (counter != null && counter.operations >= pools.maxOperationCount(at)) {
                throw new SubmitException(SubmitError.TOO_MANY_OPERATIONS, "Max operation count of pool \"" + at
                        + "\" violated", Map.of("pool", at, "pool_tree", pools.name(), "limit", pools.maxOperationCount(at)));
            }
            if (wasRunning && !lightweight && counter != null && counter.running >= pools.maxRunningOperationCount(at)) {
                throw new SubmitException(SubmitError.TOO_MANY_OPERATIONS, "Max running operation count of pool \"" + at
                        + "\" violated", Map.of("pool", at, "pool_tree", pools.name(),
                        "limit", pools.maxRunningOperationCount(at)));
            }
        }
        String queue = queuedAt.remove(operation);
        if (queue != null) {
            counter(queue).pending.remove(operation);
        }
        for (String at : oldPath) {
            if (!newPath.contains(at)) {
                count(at, -1, entry.lightweight(), wasRunning);
            }
        }
        boolean runs = wasRunning || lightweight;
        for (String at : newPath) {
            if (!oldPath.contains(at)) {
                count(at, 1, lightweight, runs);
            }
        }
        if (wasRunning && lightweight) {
            for (String at : newPath) {
                if (oldPath.contains(at)) {
                    counter(at).running--;
                    counter(at).lightweight++;
                }
            }
        }
        operations.put(operation, new Entry(pool, lightweight));
        if (!runs) {
            String violating = lowestViolatingPool(pool);
            if (violating == null) {
                markRunning(pool);
            } else {
                counter(violating).pending.addLast(operation);
                queuedAt.put(operation, violating);
            }
        }
        List<String> activated = new ArrayList<>();
        for (String at : oldPath) {
            activateQueued(at, activated);
        }
        releaseIfEmpty(entry.pool());
        return activated;
    }

    /** Rescans every queue, e.g. after the limits changed (the reference's periodic rescan). */
    public List<String> tryRunAllPending() {
        List<String> activated = new ArrayList<>();
        for (String pool : List.copyOf(queuedAt.values().stream().distinct().toList())) {
            activateQueued(pool, activated);
        }
        return activated;
    }

    /** Whether an operation waits in a queue. */
    public boolean isPending(String operation) {
        return queuedAt.containsKey(operation);
    }

    /** Why an operation is pending, or {@code null} if it is not. */
    public PendingReason pendingReason(String operation) {
        String pool = queuedAt.get(operation);
        if (pool == null) {
            return null;
        }
        int position = 1;
        for (String queued : counters.get(pool).pending) {
            if (queued.equals(operation)) {
                break;
            }
            position++;
        }
        return new PendingReason(pools.name(), pool, pools.maxRunningOperationCount(pool), position);
    }

    /** The counters of one pool ({@code <Root>} for the whole tree). */
    public PoolOperationCounts counts(String pool) {
        Counter counter = counters.get(pool);
        int maxOps = pools.contains(pool) ? pools.maxOperationCount(pool) : 0;
        int maxRunning = pools.contains(pool) ? pools.maxRunningOperationCount(pool) : 0;
        if (counter == null) {
            return new PoolOperationCounts(0, 0, 0, 0, maxOps, maxRunning);
        }
        return new PoolOperationCounts(counter.operations, counter.running, counter.lightweight,
                counter.pending.size(), maxOps, maxRunning);
    }
}
