package io.grove.core.fairshare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An update tells its listener every phase once, in order, and gives the result it gives without one. */
class UpdatePhaseTest {

    @Test
    void everyPhaseIsToldOnceInOrder() {
        FairShareInput input = TreeGenerator.generate(7, new TreeGenerator.Shape(60, 400, 3, true));
        List<UpdatePhase> told = new ArrayList<>();
        FairShareResult result = FairShareUpdate.run(input, told::add);
        assertEquals(Arrays.asList(UpdatePhase.values()), told);
        assertEquals(FairShareUpdate.run(input).elements(), result.elements());
    }
}
