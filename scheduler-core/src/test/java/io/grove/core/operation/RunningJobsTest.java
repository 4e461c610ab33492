package io.grove.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SplittableRandom;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunningJobsTest {

    private static final TaskSpec TASK = TaskSpec.of("t", 1_000_000, Resources.cpu(1), "true");

    private static Job job(long n) {
        return new Job("op-1-" + n, "op-1", TASK, (int) n, 0, "node", "physical", Instant.EPOCH, Set.of(), 0);
    }

    /** Seeded series of starts and ends against an insertion-ordered map: same members, same order. */
    @Test
    void keepsStartOrderThroughHolesAndCompactions() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            RunningJobs running = new RunningJobs();
            LinkedHashMap<String, Job> model = new LinkedHashMap<>();
            long next = 0;
            for (int step = 0; step < 5_000; step++) {
                boolean start = model.isEmpty() || random.nextInt(100) < (step < 2_500 ? 60 : 40);
                if (start) {
                    Job job = job(next++);
                    running.add(job);
                    model.put(job.id(), job);
                } else {
                    List<String> ids = new ArrayList<>(model.keySet());
                    String id = ids.get(random.nextInt(ids.size()));
                    Job ended = model.remove(id);
                    assertSame(ended, running.remove(ended), "seed " + seed);
                    assertNull(running.get(id));
                }
                if (step % 97 == 0) {
                    assertEquals(List.copyOf(model.values()), List.of(running.toArray()), "seed " + seed + " step " + step);
                    List<Job> iterated = new ArrayList<>();
                    running.forEach(iterated::add);
                    assertEquals(List.copyOf(model.values()), iterated, "seed " + seed + " step " + step);
                }
            }
            assertEquals(model.size(), running.size());
        }
    }

    @Test
    void refusesTheSameAttemptTwiceAndForgetsUnknownOnes() {
        RunningJobs running = new RunningJobs();
        Job job = job(1);
        running.add(job);
        assertThrows(IllegalStateException.class, () -> running.add(job));
        assertNull(running.remove(job(99)));
        assertSame(job, running.remove(job(1)));
        assertEquals(0, running.toArray().length);
    }
}
