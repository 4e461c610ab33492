package io.grove.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobsByIdTest {

    private static final TaskSpec TASK = TaskSpec.of("t", 1_000_000, Resources.cpu(1), "true");

    private static Job job(String id) {
        return new Job(id, "op", TASK, 0, 0, "node", "physical", Instant.EPOCH, Set.of(), 0);
    }

    /** Seeded puts, replacements and removals against a HashMap, with ids that collide a lot. */
    @Test
    void behavesAsAMap() {
        for (long seed = 1; seed <= 30; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            JobsById jobs = new JobsById();
            Map<String, Job> model = new HashMap<>();
            // "Aa" and "BB" have the same hash: ids built from them collide in every table size
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                ids.add(random.nextBoolean() ? "op-" + random.nextInt(2_000) : colliding(random));
            }
            for (int step = 0; step < 20_000; step++) {
                String id = ids.get(random.nextInt(ids.size()));
                int what = random.nextInt(10);
                if (what < 5) {
                    Job job = job(id);
                    assertSame(model.put(id, job), jobs.put(job), "seed " + seed);
                } else if (what < 9) {
                    assertSame(model.remove(id), jobs.remove(id), "seed " + seed);
                } else {
                    assertSame(model.get(id), jobs.get(id), "seed " + seed);
                }
                assertEquals(model.size(), jobs.size(), "seed " + seed);
            }
            for (String id : ids) {
                assertSame(model.get(id), jobs.get(id), "seed " + seed + " id " + id);
            }
        }
    }

    @Test
    void emptiesAndRefills() {
        JobsById jobs = new JobsById();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 1_000; i++) {
                jobs.put(job("j" + i));
            }
            for (int i = 0; i < 1_000; i++) {
                assertEquals("j" + i, jobs.remove("j" + i).id());
            }
            assertEquals(0, jobs.size());
            assertNull(jobs.get("j1"));
        }
    }

    private static String colliding(SplittableRandom random) {
        StringBuilder id = new StringBuilder();
        for (int k = 0; k < 4; k++) {
            id.append(random.nextBoolean() ? "Aa" : "BB");
        }
        return id.toString();
    }
}
