package io.grove.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A job's id worked with as its parts gives what the string would. */
class JobIdTest {

    private static final TaskSpec TASK = TaskSpec.of("t", 10, Resources.cpu(1), "true");

    @Test
    void hashAndComparisonAreThoseOfTheString() {
        SplittableRandom random = new SplittableRandom(5);
        for (String operation : List.of("op-1", "op-123456", "x", "op-\u00e9t\u00e9", "op-9-9")) {
            for (int k = 0; k < 2_000; k++) {
                long sequence = k < 30 ? k : random.nextLong(JobId.LIMIT);
                String id = operation + "-" + sequence;
                assertEquals(id.hashCode(), JobId.hash(operation, sequence), id);
                assertEquals(sequence, JobId.sequenceOf(id, operation), id);
                assertTrue(JobId.matches(id, operation, sequence), id);
                assertFalse(JobId.matches(id + "0", operation, sequence), id);
                assertFalse(JobId.matches(operation + "-" + (sequence ^ 1), operation, sequence), id);
                assertFalse(JobId.matches(id, operation + "x", sequence), id);
            }
        }
    }

    @Test
    void idsOfAnotherFormAreKeptAsTheyAre() {
        for (String id : List.of("op-1-007", "op-1-", "op-1", "op-2-3", "op-1-3a", "op-1--3", "op-1-99999999999999999999", "op-1-1000000000000000000",
                "job-1", "op-1-+3")) {
            Job job = new Job(id, "op-1", TASK, 0, 0, "n", "t", Instant.EPOCH, Set.of(), 0);
            assertEquals(id, job.id());
            assertEquals(id.hashCode(), job.idHash(), id);
            assertTrue(job.hasId(id), id);
            assertFalse(job.hasId(id + "1"), id);
        }
        Job usual = new Job("op-1-42", "op-1", TASK, 0, 0, "n", "t", Instant.EPOCH, Set.of(), 0);
        Job same = new Job(42, "op-1", TASK, 0, 0, "n", "t", Instant.EPOCH, Set.of(), 0);
        assertEquals("op-1-42", same.id());
        assertTrue(usual.sameId(same));
        assertTrue(same.hasId("op-1-42"));
        assertFalse(same.hasId("op-1-420"));
        assertFalse(same.sameId(new Job(43, "op-1", TASK, 0, 0, "n", "t", Instant.EPOCH, Set.of(), 0)));
        Job huge = new Job(JobId.LIMIT, "op-1", TASK, 0, 0, "n", "t", Instant.EPOCH, Set.of(), 0);
        assertEquals("op-1-1000000000000000000", huge.id());
        assertTrue(huge.hasId("op-1-1000000000000000000"));
        assertEquals(huge.id().hashCode(), huge.idHash());
    }
}
