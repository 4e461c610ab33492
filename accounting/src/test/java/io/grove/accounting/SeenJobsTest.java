package io.grove.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The writer's memory of what the database holds: exact, cheap for sparse sequences, bounded. */
class SeenJobsTest {

    @Test
    void idsAreKnownExactlyAndSparseSequencesCostTheirPagesOnly() {
        SeenJobs.Seen seen = new SeenJobs().make("op-1");
        for (String id : new String[] {"op-1-5", "op-1-10000000", "op-1-4096", "other-7", "op-1-05"}) {
            seen.add("op-1", id);
        }
        for (String id : new String[] {"op-1-5", "op-1-10000000", "op-1-4096", "other-7", "op-1-05"}) {
            assertTrue(seen.contains("op-1", id), id);
        }
        for (String id : new String[] {"op-1-6", "op-1-4095", "op-1-9999999", "op-1-50", "other-8", "op-2-5"}) {
            assertFalse(seen.contains("op-1", id), id);
        }
        assertTrue(seen.bytes() < 4_000, "three pages and two strings, not ten million bits: " + seen.bytes());
    }

    @Test
    void theOperationsUsedLeastRecentlyAreForgottenBeyondTheBudgetButNotThoseInUse() {
        SeenJobs jobs = new SeenJobs(3_000);
        for (int op = 0; op < 10; op++) {
            jobs.make("op-" + op).add("op-" + op, "op-" + op + "-1");
        }
        jobs.trim(Set.of("op-0"));
        assertTrue(jobs.operations() < 10, "some forgotten: " + jobs.operations());
        assertTrue(jobs.of("op-0") != null, "the one in use is kept");
        assertNull(jobs.of("op-1"), "the least recently used other is forgotten");
        assertEquals(true, jobs.of("op-9") != null);
    }
}
