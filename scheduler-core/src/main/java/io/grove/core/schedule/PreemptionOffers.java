package io.grove.core.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which node of a tree starvation preemption takes its victims on (docs/scheduling.md#least-lost-work).
 * For each starving operation the nodes' preemptive passes offer what they would lose to start one
 * of its jobs; once every node of the tree offered, or the window ran its length (the tree's
 * {@code preemptive_scheduling_backoff}, within which each node makes a pass), the nodes that lose
 * the least — as many as the operation is short of jobs, from the cheapest eighth of those that
 * offered — are invited, and take their victims at their next heartbeat (asked to come now). A node that finds the window complete and itself the
 * cheapest takes at once; in a tree of one node that is its first pass.
 *
 * <p>Decisions only read it ({@link #takeNow}); the scheduler's thread writes it as it applies
 * decisions ({@link #applied}) and checks the nodes ({@link #expire}). Bounded: one window per
 * starving operation, an offer per node in it, at most {@link #MAX_INVITED} invitations per window.
 */
public final class PreemptionOffers {

    /** The most nodes invited for one operation at a time. */
    public static final int MAX_INVITED = 64;
    /**
     * Of the nodes that offered in a window, only the cheapest this part (at least one) are invited:
     * the others are asked again in the next window, when checkpoints may have made them cheaper.
     * Measured against inviting as many as wanted ({@code LostWorkSimulation}): half the lost work
     * again, at no worse fairness.
     */
    static final int CHEAPEST_PART = 8;

    /** One node's offer for one operation, made at {@code atMs}. */
    private record Offer(String nodeId, double cost, double rate, long atMs) {

        double costAt(long nowMs) {
            return cost + rate * Math.max(0, nowMs - atMs) / 1000.0;
        }
    }

    private static final class Window {
        final long openedMs;
        final Map<String, Offer> offers = new LinkedHashMap<>();
        /** How many jobs the operation was short of, as the latest offer said. */
        int wanted = 1;

        Window(long openedMs) {
            this.openedMs = openedMs;
        }
    }

    private final Map<String, Window> windows = new HashMap<>();
    /** Node id to the operations it is invited to take victims for, each with until when. */
    private final Map<String, Map<String, Long>> invitations = new HashMap<>();
    private int nodes = 1;
    private long windowMs = 5000;

    /** The tree has {@code count} online nodes, and each makes a preemptive pass within {@code window}. */
    public void shape(int count, Duration window) {
        this.nodes = Math.max(1, count);
        this.windowMs = Math.max(0, window.toMillis());
    }

    /**
     * Whether {@code nodeId}, which would lose {@code cost} now, takes victims for {@code operationId}
     * now: it was invited, or every other node offered (or the window ran out) and none loses less.
     */
    public boolean takeNow(String operationId, String nodeId, double cost, Instant now) {
        long nowMs = now.toEpochMilli();
        if (invited(nodeId, operationId, nowMs)) {
            return true;
        }
        Window window = windows.get(operationId);
        int others = 0;
        double best = Double.POSITIVE_INFINITY;
        if (window != null) {
            for (Offer offer : window.offers.values()) {
                if (!offer.nodeId().equals(nodeId)) {
                    others++;
                    best = Math.min(best, offer.costAt(nowMs));
                }
            }
        }
        boolean complete = others + 1 >= nodes || window != null && nowMs >= window.openedMs + windowMs;
        return complete && cost <= best + 1e-9;
    }

    /** Whether a node was invited to take victims for an operation and may still. */
    private boolean invited(String nodeId, String operationId, long nowMs) {
        Map<String, Long> of = invitations.get(nodeId);
        Long until = of == null ? null : of.get(operationId);
        return until != null && nowMs <= until;
    }

    /** Whether some window is open or some invitation waits: a node is to come before any backoff ends. */
    public boolean pending() {
        return !windows.isEmpty() || !invitations.isEmpty();
    }

    /** Whether some invitation waits for the node (it then makes a pass whatever its backoff). */
    public boolean invites(String nodeId) {
        return invitations.containsKey(nodeId);
    }

    /**
     * A node's decision was applied: the operations it started a job for by preemption
     * ({@code tookFor}) close their windows and its invitations; its offers are recorded, and a window
     * they complete invites its cheapest nodes.
     *
     * @return the nodes newly invited, to ask to heartbeat now
     */
    public List<String> applied(String nodeId, Collection<String> tookFor, List<Decision.PreemptionOffer> offers,
            Instant now) {
        long nowMs = now.toEpochMilli();
        for (String operationId : tookFor) {
            windows.remove(operationId);
            uninvite(nodeId, operationId);
        }
        List<String> invited = new ArrayList<>();
        for (Decision.PreemptionOffer offer : offers) {
            Window window = windows.computeIfAbsent(offer.operationId(), k -> new Window(nowMs));
            window.offers.put(nodeId, new Offer(nodeId, offer.cost(), offer.rate(), nowMs));
            if (Double.isFinite(offer.cost())) {
                window.wanted = offer.wanted();   // a node that cannot take says nothing of how many are wanted
            }
            if (window.offers.size() >= nodes || nowMs >= window.openedMs + windowMs) {
                windows.remove(offer.operationId());
                invite(offer.operationId(), window, nowMs, invited);
            }
        }
        return invited;
    }

    /**
     * Closes the windows past their length (the nodes that did not offer are not waited for) and
     * drops invitations not taken in time; returns the nodes newly invited.
     */
    public List<String> expire(Instant now) {
        long nowMs = now.toEpochMilli();
        List<String> invited = new ArrayList<>();
        for (Iterator<Map.Entry<String, Window>> it = windows.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Window> entry = it.next();
            if (nowMs >= entry.getValue().openedMs + windowMs) {
                it.remove();
                invite(entry.getKey(), entry.getValue(), nowMs, invited);
            }
        }
        invitations.values().removeIf(of -> {
            of.values().removeIf(until -> until < nowMs);
            return of.isEmpty();
        });
        return invited;
    }

    /**
     * Invites the window's cheapest nodes that can take, as many as it wants (less those invited
     * already), from the cheapest {@link #CHEAPEST_PART}th of them.
     */
    private void invite(String operationId, Window window, long nowMs, List<String> invited) {
        int outstanding = 0;
        for (Map<String, Long> of : invitations.values()) {
            outstanding += of.containsKey(operationId) ? 1 : 0;
        }
        int left = Math.min(MAX_INVITED, window.wanted) - outstanding;
        if (left <= 0) {
            return;
        }
        List<Offer> offers = new ArrayList<>();
        for (Offer offer : window.offers.values()) {
            if (Double.isFinite(offer.cost())) {
                offers.add(offer);
            }
        }
        offers.sort((a, b) -> Double.compare(a.costAt(nowMs), b.costAt(nowMs)));
        int cheapest = Math.min(left, (offers.size() + CHEAPEST_PART - 1) / CHEAPEST_PART);
        for (int i = 0; i < cheapest; i++) {
            String nodeId = offers.get(i).nodeId();
            invitations.computeIfAbsent(nodeId, k -> new HashMap<>()).put(operationId, nowMs + Math.max(windowMs, 1000));
            invited.add(nodeId);
        }
    }

    private void uninvite(String nodeId, String operationId) {
        Map<String, Long> of = invitations.get(nodeId);
        if (of != null && of.remove(operationId) != null && of.isEmpty()) {
            invitations.remove(nodeId);
        }
    }

    /** The operations with an open window, and the nodes that offered for each (for tests and explanations). */
    public Map<String, List<String>> openWindows() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        windows.forEach((operation, window) -> out.put(operation, List.copyOf(window.offers.keySet())));
        return out;
    }
}
