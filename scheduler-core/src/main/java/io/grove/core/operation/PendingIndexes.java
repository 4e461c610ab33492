package io.grove.core.operation;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The job indexes of one task that wait to start, in O(retries) memory rather than O(jobs): the
 * indexes never started are the range {@code [nextFresh, jobCount)} (minus any taken out of order
 * when revived), and retried ones wait in front of them. Also counts each index's attempts.
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

    /** Puts an index back in front (an aborted or failed attempt). */
    void retry(int index) {
        retries.addFirst(index);
    }

    /** Takes a specific index out (revival of a running job); {@code false} if it is not pending. */
    boolean remove(int index) {
        if (retries.remove(index)) {
            return true;
        }
        if (index >= nextFresh && index < jobCount && !takenAhead.get(index)) {
            takenAhead.set(index);
            takenAheadCount++;
            return true;
        }
        return false;
    }

    void clear() {
        retries.clear();
        takenAhead.clear();
        takenAheadCount = 0;
        nextFresh = jobCount;
    }

    /** How many attempts the index had; the next attempt's number. */
    int attempts(int index) {
        return attempts.getOrDefault(index, 0);
    }

    /** Counts an attempt (at least {@code attempt + 1} so far). */
    void attempted(int index, int attempt) {
        attempts.merge(index, attempt + 1, Math::max);
    }

    /**
     * A compact picture of the task's progress for a snapshot: the never-started range, the
     * retries, the indexes taken out of order, and the attempts. The running indexes given are
     * counted as pending, so that restoring the running jobs afterwards takes them out again.
     *
     * @param nextFresh the lowest index never started
     * @param retries indexes waiting in front, in order
     * @param takenAhead indexes at or above {@code nextFresh} that are not pending
     * @param attempts attempts per index that had any
     */
    public record State(int nextFresh, java.util.List<Integer> retries, java.util.List<Integer> takenAhead,
            Map<Integer, Integer> attempts) {
        public State {
            retries = java.util.List.copyOf(retries);
            takenAhead = java.util.List.copyOf(takenAhead);
            attempts = Map.copyOf(attempts);
        }
    }

    State state(java.util.Collection<Integer> running) {
        java.util.List<Integer> retried = new java.util.ArrayList<>(retries);
        BitSet ahead = (BitSet) takenAhead.clone();
        for (int index : running) {
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
        attempts.putAll(state.attempts());
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
