package io.grove.core.operation;

/**
 * Running attempts by id, in open addressing (linear probing, with each id's hash kept beside its
 * job so that a probe reads one int array): no object per entry. A busy scheduler starts thousands
 * of jobs a second and keeps them for minutes; with a map entry per job, every young collection
 * had those entries to copy as well as the jobs.
 */
public final class JobsById {

    private Job[] jobs = new Job[16];
    private int[] hashes = new int[16];
    private int size;

    public int size() {
        return size;
    }

    public Job get(String id) {
        int hash = hash(id);
        int mask = jobs.length - 1;
        for (int i = hash & mask;; i = (i + 1) & mask) {
            Job job = jobs[i];
            if (job == null) {
                return null;
            }
            if (hashes[i] == hash && job.hasId(id)) {
                return job;
            }
        }
    }

    /** Adds {@code job} under its id; returns the job it replaced, or {@code null}. */
    public Job put(Job job) {
        if (2 * (size + 1) > jobs.length) {
            grow();
        }
        int hash = spread(job.idHash());
        int mask = jobs.length - 1;
        for (int i = hash & mask;; i = (i + 1) & mask) {
            Job present = jobs[i];
            if (present == null) {
                jobs[i] = job;
                hashes[i] = hash;
                size++;
                return null;
            }
            if (hashes[i] == hash && present.sameId(job)) {
                jobs[i] = job;
                return present;
            }
        }
    }

    /** Removes the job with this id; returns it, or {@code null}. */
    public Job remove(String id) {
        int hash = hash(id);
        int mask = jobs.length - 1;
        for (int i = hash & mask; jobs[i] != null; i = (i + 1) & mask) {
            if (hashes[i] == hash && jobs[i].hasId(id)) {
                return removeAt(i);
            }
        }
        return null;
    }

    /** Removes the job with {@code job}'s id (without building it); returns it, or {@code null}. */
    public Job remove(Job job) {
        int hash = spread(job.idHash());
        int mask = jobs.length - 1;
        for (int i = hash & mask; jobs[i] != null; i = (i + 1) & mask) {
            if (hashes[i] == hash && (jobs[i] == job || jobs[i].sameId(job))) {
                return removeAt(i);
            }
        }
        return null;
    }

    private Job removeAt(int i) {
        int mask = jobs.length - 1;
        Job removed = jobs[i];
        // Backward shift: move up every later entry of the run whose home is not between the hole and it.
        int hole = i;
        for (int j = (hole + 1) & mask; jobs[j] != null; j = (j + 1) & mask) {
            int home = hashes[j] & mask;
            boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
            if (!stays) {
                jobs[hole] = jobs[j];
                hashes[hole] = hashes[j];
                hole = j;
            }
        }
        jobs[hole] = null;
        size--;
        return removed;
    }

    private void grow() {
        Job[] oldJobs = jobs;
        int[] oldHashes = hashes;
        jobs = new Job[oldJobs.length * 2];
        hashes = new int[oldJobs.length * 2];
        int mask = jobs.length - 1;
        for (int k = 0; k < oldJobs.length; k++) {
            if (oldJobs[k] != null) {
                int i = oldHashes[k] & mask;
                while (jobs[i] != null) {
                    i = (i + 1) & mask;
                }
                jobs[i] = oldJobs[k];
                hashes[i] = oldHashes[k];
            }
        }
    }

    private static int hash(String id) {
        return spread(id.hashCode());
    }

    /** A hash with its high bits folded in, as {@code HashMap} does. */
    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
