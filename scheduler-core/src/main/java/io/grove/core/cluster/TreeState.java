package io.grove.core.cluster;

import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.FairShareWorkspace;
import io.grove.core.fairshare.IntegralState;
import io.grove.core.node.Node;
import io.grove.core.node.NodeFilter;
import io.grove.core.pool.PoolPause;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.preempt.StarvationTracker;
import io.grove.core.schedule.PreemptionOffers;
import io.grove.core.schedule.SchedulingIndex;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** What the scheduler keeps per pool tree between updates. */
final class TreeState {

    NodeFilter nodesFilter;
    /** Each level's domains of the tree's nodes, with what is free on them. */
    TopologyIndex topology;
    final StarvationTracker starvation = new StarvationTracker();
    Map<String, IntegralState> integralState = Map.of();
    /** Usage averages of pools that infer their children's weights from them; not journaled. */
    Map<String, Double> historicUsage = Map.of();
    Map<String, StarvationStatus> starving = Map.of();
    Instant lastUpdate;
    FairShareResult result;
    /** The result's elements in tree order, made once at publication. */
    List<ElementShares> elements = List.of();
    SchedulingIndex index;
    /**
     * Jobs waiting in operations that publications made schedulable since nodes were last asked to
     * heartbeat for them (as many nodes with room are asked, up to a limit).
     */
    int newWork;
    /** Its paused pools by name, in the order they were paused. */
    final Map<String, PoolPause> pauses = new LinkedHashMap<>();
    /** Its gangs' plans, why waiting gangs wait, and which are restarting. */
    final GangPlans gangs = new GangPlans();
    /** Its starving gangs' reservations. */
    final ReservationBook reservations = new ReservationBook();
    /** What its nodes would lose to preempt for each starving operation, and the nodes invited to. */
    final PreemptionOffers offers = new PreemptionOffers();
    /** The arrays its fair-share updates work in, kept from one to the next. */
    final FairShareWorkspace workspace = new FairShareWorkspace();

    TreeState(NodeFilter nodesFilter, List<String> topologyLevels) {
        this.nodesFilter = nodesFilter;
        this.topology = new TopologyIndex(topologyLevels);
    }

    /** Puts a node in the one tree whose {@code nodes_filter} its tags match, or in none, saying why. */
    static void assign(Map<String, TreeState> trees, Node node) {
        List<String> matching = new ArrayList<>();
        for (Map.Entry<String, TreeState> tree : trees.entrySet()) {
            if (tree.getValue().nodesFilter.matches(node.tags())) {
                matching.add(tree.getKey());
            }
        }
        if (matching.size() == 1) {
            node.assignTree(matching.get(0), null, false);
        } else if (matching.isEmpty()) {
            node.assignTree(null, "node " + node.id() + " with tags " + new TreeSet<>(node.tags())
                    + " matches no pool tree's nodes_filter", false);
        } else {
            node.assignTree(null, "node " + node.id() + " with tags " + new TreeSet<>(node.tags())
                    + " matches more than one pool tree: " + matching + "; a node may belong to one tree only", true);
        }
    }
}
