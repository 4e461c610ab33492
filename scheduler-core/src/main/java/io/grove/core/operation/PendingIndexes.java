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
final class PendingIndexes implements Iterable<Integer> {

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
