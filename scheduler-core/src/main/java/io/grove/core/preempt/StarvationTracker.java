package io.grove.core.preempt;

import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.operation.OperationPreemption;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolPreemptionConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.StarvationSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Starvation of the elements of one tree, carried from update to update (see docs/scheduling.md#starvation): an
 * element below its fair share (times the tolerance) remembers since when; past the starvation
 * timeout it starves, past the aggressive timeout (where enabled) it starves aggressively; at or
 * above it the memory is reset. Pools take their own settings or their parent's; operations their
 * parent's, made more conservative by their own spec settings (the smaller tolerance, the longer
 * timeout), with tolerance 1 when the fair share covers the whole demand and timeouts scaled by
 * {@code min(1, pending jobs / allocation_count_preemption_timeout_coefficient)}.
 */
public final class StarvationTracker {

    /** Effective settings of one element. */
    private record Effective(double tolerance, Duration timeout, Duration aggressiveTimeout, boolean aggressive) {
    }

    /** Each element below its fair share: since when, and the starvation timeout in force for it. */
    private final Map<String, Below> belowSince = new HashMap<>();

    /**
     * An element below its fair share: since when, and when it starves (its preemption may start).
     */
    public record Below(Instant since, Duration timeout) {

        public Instant starvesAt() {
            return since.plus(timeout);
        }
    }

    /** The earliest time after {@code now} at which an element below its fair share starves, or {@code null}. */
    public Instant nextStarvation(Instant now) {
        Instant next = null;
        for (Below below : belowSince.values()) {
            Instant at = below.starvesAt();
            if (at.isAfter(now) && (next == null || at.isBefore(next))) {
                next = at;
            }
        }
        return next;
    }

    /** Whether an element was below its fair share at the last update, since when, and its timeout; else {@code null}. */
    public Below below(String id) {
        return belowSince.get(id);
    }

    /** Every element below its fair share at the last update (a copy, for a forecast to start from). */
    public Map<String, Below> belowAll() {
        return Map.copyOf(belowSince);
    }

    /** Starts from what another tracker remembered (a forecast's copy of the live state). */
    public void restore(Map<String, Below> below) {
        belowSince.clear();
        belowSince.putAll(below);
    }

    /**
     * Updates every element's status with a new fair-share result.
     *
     * @param elements the update's elements in tree order (parents first)
     * @param config the tree as the update saw it (with ephemeral pools)
     * @param pendingJobs pending job count by operation id
     * @param operationSettings the operations' own settings by id (absent: none)
     * @param now the update's time
     * @return the status of every element that is not {@link StarvationStatus#NON_STARVING}
     */
    public Map<String, StarvationStatus> update(List<ElementShares> elements, PoolTreeConfig config,
            Map<String, Integer> pendingJobs, Map<String, OperationPreemption> operationSettings, Instant now) {
        StarvationSettings tree = config.starvation();
        PoolTree shape = PoolTree.of(config);
        Map<String, Effective> effective = new HashMap<>();
        Map<String, StarvationStatus> statuses = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (ElementShares element : elements) {
            seen.add(element.id());
            if (element.kind() == ElementKind.ROOT) {
                effective.put(element.id(), new Effective(tree.fairShareStarvationTolerance(),
                        tree.fairShareStarvationTimeout(), tree.fairShareAggressiveStarvationTimeout(),
                        tree.enableAggressiveStarvation()));
                continue;
            }
            Effective parent = effective.get(element.parent());
            Effective own;
            if (element.kind() == ElementKind.POOL) {
                own = forPool(parent, shape.pool(element.id()).orElseThrow().config().preemption());
                effective.put(element.id(), own);
                if (!tree.enablePoolStarvation()) {
                    belowSince.remove(element.id());
                    continue;
                }
            } else {
                own = forOperation(parent, operationSettings.getOrDefault(element.id(), OperationPreemption.NONE), element,
                        pendingJobs.getOrDefault(element.id(), 0), tree.allocationCountPreemptionTimeoutCoefficient());
            }
            StarvationStatus status = track(element, own, now);
            if (status != StarvationStatus.NON_STARVING) {
                statuses.put(element.id(), status);
            }
        }
        belowSince.keySet().retainAll(seen);
        return statuses;
    }

    private StarvationStatus track(ElementShares element, Effective settings, Instant now) {
        boolean below = ShareBounds.belowFairShare(element.usageShare().toArray(),
                element.fairShare().total().toArray(), settings.tolerance(), element.demandShare().toArray());
        if (!below) {
            belowSince.remove(element.id());
            return StarvationStatus.NON_STARVING;
        }
        Below entry = belowSince.get(element.id());
        if (entry == null || !entry.timeout().equals(settings.timeout())) {
            // a new entry only when an element falls below, or its timeout changes
            entry = new Below(entry == null ? now : entry.since(), settings.timeout());
            belowSince.put(element.id(), entry);
        }
        Instant since = entry.since();
        Duration below_ = Duration.between(since, now);
        if (settings.aggressive() && below_.compareTo(settings.aggressiveTimeout()) > 0) {
            return StarvationStatus.AGGRESSIVELY_STARVING;
        }
        return below_.compareTo(settings.timeout()) > 0 ? StarvationStatus.STARVING : StarvationStatus.NON_STARVING;
    }

    private static Effective forPool(Effective parent, PoolPreemptionConfig own) {
        return new Effective(
                own.fairShareStarvationTolerance() != null ? own.fairShareStarvationTolerance() : parent.tolerance(),
                own.fairShareStarvationTimeout() != null ? own.fairShareStarvationTimeout() : parent.timeout(),
                parent.aggressiveTimeout(),
                own.enableAggressiveStarvation() != null ? own.enableAggressiveStarvation() : parent.aggressive());
    }

    private static Effective forOperation(Effective parent, OperationPreemption spec, ElementShares element,
            int pendingJobs, double coefficient) {
        double tolerance = ShareBounds.coversDemand(element.fairShare().total().toArray(), element.demandShare().toArray())
                ? 1.0 : spec.tolerance(parent.tolerance());
        double scale = coefficient > 0 ? Math.min(1.0, pendingJobs / coefficient) : 1.0;
        return new Effective(tolerance, scaled(spec.timeout(parent.timeout()), scale), scaled(parent.aggressiveTimeout(), scale),
                parent.aggressive());
    }

    private static Duration scaled(Duration duration, double factor) {
        return factor >= 1.0 ? duration : Duration.ofNanos((long) (duration.toNanos() * factor));
    }
}
