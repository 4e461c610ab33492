package io.grove.core.operation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The job indexes of one task that wait to start, in O(retries) memory rather than O(jobs): the
 * indexes never started are the range {@code [nextFresh, jobCount)} (minus any taken out of order
 * when revived), and retried ones wait in front of them with the number of their next attempt. A
 * running attempt carries its own number, and a completed index needs none, so nothing is kept
 * for either.
 */
public final class PendingIndexes implements Iterable<Integer> {

    private final int jobCount;
    private int nextFresh;
    private final ArrayDeque<Integer> retries = new ArrayDeque<>();
    private final BitSet takenAhead = new BitSet();
    private int takenAheadCount;
    private final Map<Integer, Integer> attempts = new HashMap<>();

    PendingIndexes(int jobCount) {
        this.jobCount = jobCount;
    }

    int size() {
        return retries.size() + (jobCount - nextFresh) - takenAheadCount;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** The next index to start: a retry first, else the lowest never started. */
    int poll() {
        if (!retries.isEmpty()) {
            return retries.pollFirst();
        }
        skipTaken();
        if (nextFresh >= jobCount) {
            throw new NoSuchElementException("no pending job index");
        }
        return nextFresh++;
    }

    private void skipTaken() {
        while (nextFresh < jobCount && takenAhead.get(nextFresh)) {
            takenAhead.clear(nextFresh);
            takenAheadCount--;
            nextFresh++;
        }
    }

    /** Puts an index back in front (an aborted or failed attempt), to run next as attempt {@code nextAttempt}. */
    void retry(int index, int nextAttempt) {
        retries.addFirst(index);
        if (nextAttempt > 0) {
            attempts.merge(index, nextAttempt, Math::max);
        }
    }

    /** Takes a specific index out (revival of a running job); {@code false} if it is not pending. */
    boolean remove(int index) {
        if (retries.remove(index)) {
            attempts.remove(index);
            return true;
        }
        if (index >= nextFresh && index < jobCount && !takenAhead.get(index)) {
            takenAhead.set(index);
            takenAheadCount++;
            return true;
        }
        return false;
    }

    /** Takes a specific pending index out to start it (a gang's rank): its attempt's number, or -1 if it is not pending. */
    int take(int index) {
        Integer next = attempts.get(index);
        if (!remove(index)) {
            return -1;
        }
        return next == null ? 0 : next;
    }

    void clear() {
        retries.clear();
        attempts.clear();
        takenAhead.clear();
        takenAheadCount = 0;
        nextFresh = jobCount;
    }

    /** The number of the attempt an index just polled starts as (0 for its first), forgotten here. */
    int startAttempt(int index) {
        Integer next = attempts.remove(index);
        return next == null ? 0 : next;
    }

    /**
     * A compact picture of the task's progress for a snapshot: the never-started range, the
     * retries, the indexes taken out of order, and the attempts. The running indexes given are
     * counted as pending, so that restoring the running jobs afterwards takes them out again.
     *
     * @param nextFresh the lowest index never started
     * @param retries indexes waiting in front, in order
     * @param takenAhead indexes at or above {@code nextFresh} that are not pending
     * @param attempts the next attempt's number of retried indexes (journals written before it was
     *     kept this small may hold every index ever started; only pending ones are restored)
     */
    public record State(int nextFresh, List<Integer> retries, List<Integer> takenAhead,
            Map<Integer, Integer> attempts) {
        public State {
            retries = List.copyOf(retries);
            takenAhead = List.copyOf(takenAhead);
            attempts = Map.copyOf(attempts);
        }
    }

    /**
     * A copy of the waiting indexes, for {@link #state} to be computed later (on another thread,
     * once handed over safely). Costs O(retries), not O(jobs).
     */
    PendingIndexes copy() {
        PendingIndexes copy = new PendingIndexes(jobCount);
        copy.nextFresh = nextFresh;
        copy.retries.addAll(retries);
        copy.takenAhead.or(takenAhead);
        copy.takenAheadCount = takenAheadCount;
        copy.attempts.putAll(attempts);
        return copy;
    }

    /** The state with the first {@code count} of {@code running} (indexes of running jobs) waiting again. */
    State state(int[] running, int count) {
        List<Integer> retried = new ArrayList<>(retries.size() + count);
        retried.addAll(retries);
        BitSet ahead = (BitSet) takenAhead.clone();
        for (int i = 0; i < count; i++) {
            int index = running[i];
            if (index >= nextFresh && ahead.get(index)) {
                ahead.clear(index);
            } else {
                retried.add(index);
            }
        }
        return new State(nextFresh, retried, ahead.stream().boxed().toList(), attempts);
    }

    void restore(State state) {
        nextFresh = state.nextFresh();
        retries.clear();
        retries.addAll(state.retries());
        takenAhead.clear();
        state.takenAhead().forEach(takenAhead::set);
        takenAheadCount = state.takenAhead().size();
        attempts.clear();
        Set<Integer> waiting = new HashSet<>(retries);
        state.attempts().forEach((index, next) -> {
            if (waiting.contains(index)) {
                attempts.put(index, next);
            }
        });
    }

    /** Pending indexes in the order they will start. */
    @Override
    public Iterator<Integer> iterator() {
        Iterator<Integer> retried = retries.iterator();
        return new Iterator<>() {
            private int fresh = nextFresh;

            @Override
            public boolean hasNext() {
                if (retried.hasNext()) {
                    return true;
                }
                while (fresh < jobCount && takenAhead.get(fresh)) {
                    fresh++;
                }
                return fresh < jobCount;
            }

            @Override
            public Integer next() {
                if (retried.hasNext()) {
                    return retried.next();
                }
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return fresh++;
            }
        };
    }
}
