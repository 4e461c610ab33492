package io.grove.core.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The offers of a tree's nodes for a starving operation: windows, invitations, and who takes at once. */
class PreemptionOffersTest {

    static final Instant T0 = Instant.parse("2026-11-28T00:00:00Z");

    static Decision.PreemptionOffer offer(double cost, int wanted) {
        return new Decision.PreemptionOffer("op", cost, 0.01, wanted);
    }

    static PreemptionOffers tree(int nodes) {
        PreemptionOffers offers = new PreemptionOffers();
        offers.shape(nodes, Duration.ofSeconds(5));
        return offers;
    }

    @Test
    void aNodeAloneTakesAtOnceAndAWindowCompleteByCountInvitesTheCheapest() {
        assertTrue(tree(1).takeNow("op", "n1", 50, T0), "a tree of one node waits for nothing");
        PreemptionOffers offers = tree(3);
        assertFalse(offers.takeNow("op", "n1", 30, T0), "the others have not offered");
        assertEquals(List.of(), offers.applied("n1", List.of(), List.of(offer(30, 1)), T0));
        assertEquals(List.of(), offers.applied("n2", List.of(), List.of(offer(10, 1)), T0));
        assertFalse(offers.takeNow("op", "n3", 20, T0), "every node offered, but n2 loses less");
        assertEquals(List.of("n2"), offers.applied("n3", List.of(), List.of(offer(20, 1)), T0), "the cheapest is invited");
        assertTrue(offers.invites("n2"));
        assertTrue(offers.takeNow("op", "n2", 10, T0.plusMillis(5)), "invited: it takes at its next heartbeat");
        offers.applied("n2", List.of("op"), List.of(), T0.plusMillis(5));
        assertFalse(offers.invites("n2"), "taken: the invitation is used up");
        assertFalse(offers.pending());
    }

    @Test
    void aNodeThatFindsEveryOfferInAndItselfCheapestTakesAtOnce() {
        PreemptionOffers offers = tree(2);
        offers.applied("n1", List.of(), List.of(offer(30, 1)), T0);
        assertTrue(offers.takeNow("op", "n2", 10, T0.plusSeconds(1)));
        assertFalse(offers.takeNow("op", "n2", 40, T0.plusSeconds(1)), "not when it loses more");
    }

    @Test
    void aWindowClosesAfterItsLengthWithoutTheNodesThatNeverOfferedAndAsManyAreInvitedAsWantedOfTheCheapestEighth() {
        PreemptionOffers offers = tree(40);
        for (int n = 1; n <= 16; n++) {
            offers.applied("n" + n, List.of(), List.of(offer(100 - n, 3)), T0.plusMillis(100 * n));
        }
        offers.applied("n17", List.of(), List.of(offer(Double.POSITIVE_INFINITY, 1)), T0.plusSeconds(3));
        assertEquals(17, offers.openWindows().get("op").size());
        assertEquals(List.of(), offers.expire(T0.plusSeconds(5)), "open for one backoff from its first offer");
        List<String> invited = offers.expire(T0.plusSeconds(6));
        assertEquals(List.of("n16", "n15"), invited,
                "three wanted, but only the cheapest eighth of sixteen; a node that cannot take neither counts nor lowers it");
        assertTrue(offers.openWindows().isEmpty());
        assertTrue(offers.invites("n16"));
        assertEquals(List.of(), offers.expire(T0.plusSeconds(12)), "invitations not taken in time lapse");
        assertFalse(offers.invites("n16"));
    }
}
