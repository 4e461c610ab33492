package io.grove.accounting;

import io.grove.core.operation.JobId;
import java.util.HashMap;
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
 * bits, in pages so that sparse sequences cost little; others are strings. The memory is bounded: the operations used least recently are forgotten
 * and read again when needed.
 */
final class SeenJobs {

    /** What is known of one operation's records in the database. */
    static final class Seen {
        /** Every record of blocks ending at or after this (epoch ms) is here; {@code Long.MAX_VALUE}: none read. */
        long coveredFromMs = Long.MAX_VALUE;
        /** Usual ids by sequence, in pages of {@value #PAGE_BITS} bits: sparse sequences cost their pages only. */
        private final Map<Long, long[]> pages = new HashMap<>();
        private final Set<String> others = new HashSet<>();

        boolean contains(String operationId, String jobId) {
            long sequence = JobId.sequenceOf(jobId, operationId);
            if (sequence < 0) {
                return others.contains(jobId);
            }
            long[] page = pages.get(sequence >>> PAGE_SHIFT);
            int bit = (int) (sequence & (PAGE_BITS - 1));
            return page != null && (page[bit >>> 6] & (1L << bit)) != 0;
        }

        void add(String operationId, String jobId) {
            long sequence = JobId.sequenceOf(jobId, operationId);
            if (sequence < 0) {
                others.add(jobId);
                return;
            }
            int bit = (int) (sequence & (PAGE_BITS - 1));
            pages.computeIfAbsent(sequence >>> PAGE_SHIFT, p -> new long[PAGE_BITS / 64])[bit >>> 6] |= 1L << bit;
        }

        /** About how many bytes it holds. */
        long bytes() {
            return (PAGE_BITS / 8 + 48L) * pages.size() + 64L * others.size() + 64;
        }
    }

    static final int PAGE_SHIFT = 12;
    static final int PAGE_BITS = 1 << PAGE_SHIFT;

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
