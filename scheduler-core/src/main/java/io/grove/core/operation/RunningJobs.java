package io.grove.core.operation;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The running attempts of one operation in start order: found by id in O(1), added and removed in
 * amortized O(1), and copied as one array. The order lives in an array of slots (a removed
 * attempt leaves a hole until holes are half the slots), so a snapshot of a busy operation copies
 * references instead of walking thousands of linked map entries spread over the heap.
 */
final class RunningJobs implements Iterable<Job> {

    private final JobsById byId = new JobsById();
    private Job[] slots = new Job[8];
    /** Slots in use, holes included. */
    private int end;

    void add(Job job) {
        Job present = byId.put(job);
        if (present != null) {
            byId.put(present);
            throw new IllegalStateException("job " + job.id() + " is already running");
        }
        if (end == slots.length) {
            if (byId.size() <= end / 2) {
                compact();
            } else {
                slots = Arrays.copyOf(slots, slots.length * 2);
            }
        }
        job.slot = end;
        slots[end++] = job;
    }

    /** Removes the attempt with {@code job}'s id; returns it, or {@code null} if it does not run here. */
    Job remove(Job job) {
        Job removed = byId.remove(job);
        if (removed == null) {
            return null;
        }
        slots[removed.slot] = null;
        if (byId.size() == 0) {
            Arrays.fill(slots, 0, end, null);
            end = 0;
        }
        return removed;
    }

    Job get(String jobId) {
        return byId.get(jobId);
    }

    int size() {
        return byId.size();
    }

    boolean isEmpty() {
        return byId.size() == 0;
    }

    /** The running attempts in start order, as a new array. */
    Job[] toArray() {
        Job[] out = new Job[byId.size()];
        int k = 0;
        for (int i = 0; i < end; i++) {
            Job job = slots[i];
            if (job != null) {
                out[k++] = job;
            }
        }
        return out;
    }

    private void compact() {
        int k = 0;
        for (int i = 0; i < end; i++) {
            Job job = slots[i];
            if (job != null) {
                job.slot = k;
                slots[k++] = job;
            }
        }
        Arrays.fill(slots, k, end, null);
        end = k;
    }

    @Override
    public Iterator<Job> iterator() {
        return new Iterator<>() {
            private int next = advance(0);

            private int advance(int from) {
                int i = from;
                while (i < end && slots[i] == null) {
                    i++;
                }
                return i;
            }

            @Override
            public boolean hasNext() {
                return next < end;
            }

            @Override
            public Job next() {
                if (next >= end) {
                    throw new NoSuchElementException();
                }
                Job job = slots[next];
                next = advance(next + 1);
                return job;
            }
        };
    }
}
