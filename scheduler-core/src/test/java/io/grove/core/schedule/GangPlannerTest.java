package io.grove.core.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.node.NodeTopology;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.GangPlanner.Candidate;
import io.grove.core.schedule.GangPlanner.Constraint;
import io.grove.core.schedule.GangPlanner.Planned;
import io.grove.core.schedule.GangPlanner.Rank;
import io.grove.core.schedule.GangPlanner.Waiting;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A gang's ranks placed all at once or not at all, inside one domain when it must be, best fit. */
class GangPlannerTest {

    private static Resources gpus(double gpu) {
        return new Resources(1, gpu, gpu, 0, 0);
    }

    private static Candidate node(String id, String topology, double freeGpu) {
        return new Candidate(id, NodeTopology.parse(topology), new Resources(8, freeGpu, freeGpu, 0, 0));
    }

    private static List<Rank> ranks(int count, double gpu) {
        List<Rank> ranks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ranks.add(new Rank(i, gpus(gpu)));
        }
        return ranks;
    }

    static final List<Candidate> RACKS = List.of(node("a1", "block=b1,rack=r1", 8), node("a2", "block=b1,rack=r1", 8),
            node("b1", "block=b1,rack=r2", 8), node("loose", "", 8));

    @Test
    void aGangThatMustStayInOneRackGoesToTheRackItFitsAndASmallOneToTheSmallestRack() {
        Planned two = assertInstanceOf(Planned.class, GangPlanner.plan(ranks(2, 8), RACKS,
                new Constraint("rack", true), ResourceType.GPU));
        assertEquals("r1", two.domain());
        assertEquals(Map.of(0, "a1", 1, "a2"), two.nodeOfRank());
        Planned one = assertInstanceOf(Planned.class, GangPlanner.plan(ranks(1, 8), RACKS,
                new Constraint("rack", true), ResourceType.GPU));
        assertEquals("r2", one.domain(), "best fit: r1 stays whole for a gang that needs it");
    }

    @Test
    void aGangThatFitsInNoRackWaitsAndSaysHowCloseEachRackCame() {
        Waiting waiting = assertInstanceOf(Waiting.class, GangPlanner.plan(ranks(3, 8), RACKS,
                new Constraint("rack", true), ResourceType.GPU));
        assertEquals("needs 3 ranks (8 cpu, 8 gpu each) in one rack; rack r1 has room for 2, rack r2 has room for 1", waiting.why());
        assertEquals(Map.of("r1", 2, "r2", 1), waiting.fitting());
        Planned spanning = assertInstanceOf(Planned.class, GangPlanner.plan(ranks(3, 8), RACKS,
                new Constraint("rack", false), ResourceType.GPU));
        assertNull(spanning.domain(), "preferred, not required: it may span racks");
        Waiting tooBig = assertInstanceOf(Waiting.class, GangPlanner.plan(ranks(5, 8), RACKS, Constraint.NONE,
                ResourceType.GPU));
        assertEquals("needs 5 ranks (8 cpu, 8 gpu each) at once; 4 fit on the tree's nodes now", tooBig.why());
        Waiting noLevel = assertInstanceOf(Waiting.class, GangPlanner.plan(ranks(1, 1), RACKS,
                new Constraint("pod", true), ResourceType.GPU));
        assertTrue(noLevel.why().endsWith("no node gives a pod"), noLevel.why());
    }

    @Test
    void seededGangsAreWholeInsideTheirDomainAndNeverOverANode() {
        for (long seed = 1; seed <= 300; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            List<Candidate> nodes = new ArrayList<>();
            for (int n = 0; n < 2 + random.nextInt(30); n++) {
                nodes.add(node("n" + n, random.nextInt(6) == 0 ? "block=b1" : "block=b" + random.nextInt(2) + ",rack=r"
                        + random.nextInt(5), random.nextInt(9)));
            }
            List<Rank> ranks = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(12); i++) {
                ranks.add(new Rank(i, gpus(1 + random.nextInt(8))));
            }
            boolean required = random.nextBoolean();
            GangPlanner.Outcome outcome = GangPlanner.plan(ranks, nodes, new Constraint("rack", required),
                    ResourceType.GPU);
            if (!(outcome instanceof Planned planned)) {
                continue;
            }
            assertEquals(ranks.size(), planned.nodeOfRank().size(), "seed " + seed + ": every rank or none");
            Map<String, Candidate> byId = new HashMap<>();
            nodes.forEach(node -> byId.put(node.nodeId(), node));
            Map<String, Double> used = new HashMap<>();
            Set<String> racks = new HashSet<>();
            for (Rank rank : ranks) {
                Candidate node = byId.get(planned.nodeOfRank().get(rank.index()));
                used.merge(node.nodeId(), rank.resources().gpu(), Double::sum);
                racks.add(String.valueOf(node.topology().domain("rack")));
            }
            for (Map.Entry<String, Double> node : used.entrySet()) {
                assertTrue(node.getValue() <= byId.get(node.getKey()).free().gpu() + 1e-9, "seed " + seed + ": "
                        + node.getKey());
            }
            if (required) {
                assertEquals(1, racks.size(), "seed " + seed + ": a required rack is never straddled: " + racks);
                assertEquals(planned.domain(), racks.iterator().next());
            }
        }
    }
}
