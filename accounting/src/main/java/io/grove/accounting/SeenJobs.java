package io.grove.accounting;

import io.grove.core.operation.JobId;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The writer's memory of which job records the database holds, per operation: what it read of the
 * operation's blocks that end at or after a time ({@link Seen#coveredFromMs}), and every record it
 * wrote since. A record written again has the same attempt and start as its first write, and ended
 * at or after that start, so a record starting at or after an operation's covered time is known to
 * be new exactly when its id is not here. Ids of the usual form ({@code <operation>-<sequence>}) are
 * bits; others are strings. The memory is bounded: the operations used least recently are forgotten
 * and read again when needed.
 */
final class SeenJobs {

    /** What is known of one operation's records in the database. */
    static final class Seen {
        /** Every record of blocks ending at or after this (epoch ms) is here; {@code Long.MAX_VALUE}: none read. */
        long coveredFromMs = Long.MAX_VALUE;
        private final BitSet usual = new BitSet();
        private final Set<String> others = new HashSet<>();

        boolean contains(String operationId, String jobId) {
            long sequence = JobId.sequenceOf(jobId, operationId);
            return sequence >= 0 && sequence < Integer.MAX_VALUE ? usual.get((int) sequence) : others.contains(jobId);
        }

        void add(String operationId, String jobId) {
            long sequence = JobId.sequenceOf(jobId, operationId);
            if (sequence >= 0 && sequence < Integer.MAX_VALUE) {
                usual.set((int) sequence);
            } else {
                others.add(jobId);
            }
        }

        /** About how many bytes it holds. */
        long bytes() {
            return usual.size() / 8 + 64L * others.size() + 64;
        }
    }

    /** About how much memory the writer's knowledge may take before operations are forgotten. */
    static final long BUDGET_BYTES = 64L << 20;

    private final Map<String, Seen> byOperation = new LinkedHashMap<>(16, 0.75f, true);
    private final long budget;

    SeenJobs() {
        this(BUDGET_BYTES);
    }

    SeenJobs(long budget) {
        this.budget = budget;
    }

    /** What is known of an operation's records, or {@code null}: nothing yet. */
    Seen of(String operationId) {
        return byOperation.get(operationId);
    }

    /** What is known of an operation's records, made empty when nothing is. */
    Seen make(String operationId) {
        return byOperation.computeIfAbsent(operationId, id -> new Seen());
    }

    /** Forgets the operations used least recently while more than the budget is held (never {@code keep}). */
    void trim(Set<String> keep) {
        long held = 0;
        for (Seen seen : byOperation.values()) {
            held += seen.bytes();
        }
        for (Iterator<Map.Entry<String, Seen>> it = byOperation.entrySet().iterator(); it.hasNext() && held > budget;) {
            Map.Entry<String, Seen> eldest = it.next();
            if (!keep.contains(eldest.getKey())) {
                held -= eldest.getValue().bytes();
                it.remove();
            }
        }
    }

    /** Forgets everything: after a failed write, what was read may not be what the database holds. */
    void clear() {
        byOperation.clear();
    }

    int operations() {
        return byOperation.size();
    }
}
