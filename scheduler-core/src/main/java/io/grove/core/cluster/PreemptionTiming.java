package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.operation.OperationRegistry;
import io.grove.core.preempt.StarvationStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;

/**
 * When the next preemptive pass may come: for a tree with a starving element, the earliest end of a
 * node's {@code preemptive_scheduling_backoff}, or the next second while offers wait to be taken
 * (docs/scheduling.md#least-lost-work). What a forecast steps to, so that it takes room by preemption
 * one pass at a time as the daemon does rather than waiting for jobs to end.
 */
final class PreemptionTiming {

    private static final Duration STEP = Duration.ofSeconds(1);

    private PreemptionTiming() {
    }

    static Instant next(Map<String, TreeState> trees, Collection<Node> nodes, OperationRegistry registry, Instant now) {
        Instant next = null;
        for (Map.Entry<String, TreeState> entry : trees.entrySet()) {
            TreeState tree = entry.getValue();
            if (tree.index == null || !starves(tree)) {
                continue;
            }
            if (tree.offers.pending()) {
                return now.plus(STEP);
            }
            Duration backoff = registry.pools(entry.getKey()).effectiveConfig().preemption().preemptiveSchedulingBackoff();
            for (Node node : nodes) {
                if (entry.getKey().equals(node.tree())) {
                    Instant last = node.lastPreemptivePass();
                    Instant at = last == null || !last.plus(backoff).isAfter(now) ? now.plus(STEP) : last.plus(backoff);
                    next = next == null || at.isBefore(next) ? at : next;
                }
            }
        }
        return next;
    }

    private static boolean starves(TreeState tree) {
        for (StarvationStatus status : tree.starving.values()) {
            if (status.compareTo(StarvationStatus.STARVING) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The earliest time after {@code now} at which an element of some tree starves, or {@code null}. */
    static Instant nextStarvation(Map<String, TreeState> trees, Instant now) {
        Instant next = null;
        for (TreeState state : trees.values()) {
            Instant at = state.starvation.nextStarvation(now);
            if (at != null && (next == null || at.isBefore(next))) {
                next = at;
            }
        }
        return next;
    }
}
