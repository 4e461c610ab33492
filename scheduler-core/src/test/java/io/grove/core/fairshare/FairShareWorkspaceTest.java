package io.grove.core.fairshare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * An update in a workspace kept from the updates before gives exactly the result of an update
 * without one, whatever came before it: trees large and small, with more or fewer resources;
 * and a workspace serves one update at a time, and is free again after an update that failed.
 */
class FairShareWorkspaceTest {

    @Test
    void keptWorkspaceGivesTheResultsOfAFreshOneBitForBit() {
        FairShareWorkspace workspace = new FairShareWorkspace();
        SplittableRandom random = new SplittableRandom(20261126);
        for (int run = 0; run < 60; run++) {
            FairShareInput input = randomInput(random, run);
            FairShareResult fresh = FairShareUpdate.run(input);
            FairShareResult kept = FairShareUpdate.run(input, workspace);
            assertEquals(fresh.elements(), kept.elements(), "run " + run);
            assertEquals(fresh.integralState(), kept.integralState(), "run " + run);
            assertEquals(fresh.alerts(), kept.alerts(), "run " + run);
        }
    }

    /**
     * A tree of 5–300 pools and up to 3,000 operations (every fifth one large, so that the next
     * ones find the workspace's arrays larger than they need, and the large one finds them too
     * small); a third of them with GPUs and network in the total, so that the functions carry
     * five resources instead of three.
     */
    private static FairShareInput randomInput(SplittableRandom random, int run) {
        boolean large = run % 5 == 4;
        int pools = large ? 300 : 5 + random.nextInt(60);
        int operations = large ? 3_000 : 1 + random.nextInt(400);
        FairShareInput input = TreeGenerator.generate(random.nextLong(),
                new TreeGenerator.Shape(pools, operations, 1 + random.nextInt(4), random.nextBoolean()));
        if (random.nextInt(3) != 0) {
            return input;
        }
        Resources total = input.totalResources().with(ResourceType.GPU, 8).with(ResourceType.NETWORK, 100);
        return new FairShareInput(input.tree(), total, input.operations(), input.integralState(),
                input.elapsedSeconds(), input.poolResourceCaps(), input.historicUsage());
    }

    @Test
    void oneUpdateAtATime() {
        FairShareWorkspace workspace = new FairShareWorkspace();
        FairShareInput input = TreeGenerator.generate(3, new TreeGenerator.Shape(20, 100, 3, false));
        List<RuntimeException> inner = new ArrayList<>();
        FairShareUpdate.run(input, workspace, phase -> {
            if (phase == UpdatePhase.FUNCTIONS) {
                inner.add(assertThrows(IllegalStateException.class, () -> FairShareUpdate.run(input, workspace)));
            }
        });
        assertEquals(1, inner.size());
        assertTrue(inner.get(0).getMessage().contains("in use by another update"), inner.get(0).getMessage());
        // Free again once the update is done.
        assertEquals(FairShareUpdate.run(input).elements(), FairShareUpdate.run(input, workspace).elements());
    }

    @Test
    void freeAgainAfterAnUpdateThatFailed() {
        FairShareWorkspace workspace = new FairShareWorkspace();
        FairShareInput input = TreeGenerator.generate(5, new TreeGenerator.Shape(20, 100, 3, false));
        RuntimeException failure = new IllegalStateException("listener failed");
        assertEquals(failure, assertThrows(IllegalStateException.class,
                () -> FairShareUpdate.run(input, workspace, phase -> {
                    if (phase == UpdatePhase.FUNCTIONS) {
                        throw failure;
                    }
                })));
        assertEquals(FairShareUpdate.run(input).elements(), FairShareUpdate.run(input, workspace).elements());
    }
}
