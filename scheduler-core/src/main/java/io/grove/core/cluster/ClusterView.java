package io.grove.core.cluster;

import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.IntegralState;
import io.grove.core.node.Node;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationsView;
import io.grove.core.pool.PoolPause;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.preempt.StarvationTracker;
import io.grove.core.schedule.GangReservation;
import io.grove.core.schedule.SchedulingIndex;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduler's state as its readers see it: the API's views and explanations, the event
 * stream, the ledger, metrics and forecasts. Nothing here changes the state; the one writer is
 * {@link Cluster}, and the daemon hands readers this view only ({@code SchedulerLoop.read}).
 */
public interface ClusterView {

    /** The operations and running jobs. */
    OperationsView registry();

    /** The pool configuration in force. */
    PoolsConfig config();

    /** The node liveness settings. */
    ClusterSettings settings();

    /** The node {@code id}, or {@code null}. */
    Node node(String id);

    /** Every node known, online or not, in the order they first reported. */
    Collection<Node> nodes();

    Set<String> treeNames();

    /** A tree's gang reservations (docs/scheduling.md#reservations-with-backfill). */
    List<GangReservation> reservations(String tree);

    /** Since when each of a tree's starving gangs without room has starved, by operation id. */
    Map<String, Instant> gangsStarving(String tree);

    /** The gang reservation holding a node, or {@code null}. */
    GangReservation reservationOn(Node node);

    /** Where a gang stands in a tree: its plan, why it waits, whether it restarts, its reservation. */
    GangStatus gang(String tree, String operationId);

    /** The tree's topology: each level's domains, their nodes and free resources; {@code null} for no tree. */
    TopologyIndex topology(String tree);

    /** The tree's last published fair shares, or {@code null} before its first update. */
    FairShareResult fairShare(String tree);

    /**
     * The last published update's elements in tree order (root, pools and operations), built once
     * at publication; empty before the first update.
     */
    List<ElementShares> elements(String tree);

    /** The tree's scheduling view, or {@code null} before its first update. */
    SchedulingIndex schedulingIndex(String tree);

    /** Elements of the tree that starve, with their status, as of the last update. */
    Map<String, StarvationStatus> starving(String tree);

    /** The nodes drained by administrators, connected or not. */
    NodeDrains drains();

    /** The paused pools of a tree, by name. */
    Map<String, PoolPause> pauses(String tree);

    /** The pause that holds an operation's pool or one above it in {@code tree}, or {@code null}. */
    PoolPause pauseOf(String tree, Operation operation);

    /** The tree's integral volumes after its last update. */
    Map<String, IntegralState> integralState(String tree);

    /** Since when each element of the tree has been below its fair share, as of its last update (a copy). */
    Map<String, StarvationTracker.Below> belowFairShare(String tree);

    /** Since when one element of the tree has been below its fair share, or {@code null}. */
    StarvationTracker.Below belowFairShare(String tree, String element);

    /** When the tree's fair shares were last published, or {@code null} before the first time. */
    Instant lastUpdate(String tree);

    /**
     * What-if: the input of {@code tree}'s update for the current demands if {@code candidate} were
     * its configuration (with the current ephemeral pools in place); operations in pools the
     * candidate lacks are left out. Its result, {@code FairShareUpdate.run(input)}, is pure and may
     * be computed on any thread.
     */
    FairShareInput whatIfInput(String tree, PoolTreeConfig candidate, Instant now);
}
