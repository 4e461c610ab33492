package io.grove.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Why a running operation has less than its fair share: one typed reason the CLI and the dashboard both show. */
class ShortfallTest {

    @Test
    void eachReasonAndNone() {
        assertNull(Shortfall.of("pending", null, null, null, 3), "only running operations");
        assertEquals(Shortfall.AWAITING_FAIR_SHARE, Shortfall.of("running", null, null, null, 3).code());
        Shortfall starving = Shortfall.of("running", 0.5, 0.1, "aggressively_starving", 3);
        assertEquals(Shortfall.STARVING, starving.code());
        assertEquals("aggressively starving: below fair share, preemption may free room", starving.message());
        assertEquals(Shortfall.WAITING_FOR_RESOURCES, Shortfall.of("running", 0.5, 0.44, "non_starving", 1).code());
        assertNull(Shortfall.of("running", 0.5, 0.46, "non_starving", 1), "within a tenth of its fair share");
        assertNull(Shortfall.of("running", 0.5, 0.1, "non_starving", 0), "nothing pending: it has what it asks for");
    }
}
