package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.GangPlan;
import io.grove.core.schedule.GangPlanner;
import io.grove.core.schedule.GangScheduling;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One tree's gang plans: those whose ranks are being started (their unstarted ranks hold what
 * they ordered on their nodes) and those running (rank 0's port is taken on its node), why each
 * waiting gang waits, and which gangs are stopping to restart as one.
 */
final class GangPlans implements GangScheduling.Held {

    private final Map<String, GangPlan> plans = new LinkedHashMap<>();
    private Map<String, GangPlanner.Waiting> waiting = Map.of();
    private final Set<String> restarting = new HashSet<>();
    private final Map<String, Integer> nextPort = new HashMap<>();
    /** Whether something changed that may let a waiting gang fit (a job ended, a node came, a publication). */
    boolean dirty = true;
    /** When the tree's gangs were last planned, or {@code null}. */
    Instant lastTry;
    /** When each starving gang last looked for room by preemption. */
    private final Map<String, Instant> preemptTried = new HashMap<>();

    @Override
    public boolean planned(String operationId) {
        return plans.containsKey(operationId);
    }

    @Override
    public Resources held(String nodeId) {
        double[] held = null;
        for (GangPlan plan : plans.values()) {
            if (plan.complete()) {
                continue;
            }
            for (GangPlan.Rank rank : plan.due(nodeId)) {
                if (held == null) {
                    held = new double[ResourceType.COUNT];
                }
                for (int r = 0; r < held.length; r++) {
                    held[r] += rank.resources().get(r);
                }
            }
        }
        return held == null ? Resources.ZERO : Resources.of(held);
    }

    @Override
    public boolean portTaken(String nodeId, int port) {
        for (GangPlan plan : plans.values()) {
            if (plan.masterPort() == port && plan.masterNode().equals(nodeId)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int nextPort(String nodeId) {
        return nextPort.getOrDefault(nodeId, GangScheduling.FIRST_MASTER_PORT);
    }

    /** Whether a gang may look for room by preemption now: not within {@code backoff} of its last look, which this is. */
    boolean mayPreempt(String operationId, Instant now, Duration backoff) {
        Instant last = preemptTried.get(operationId);
        if (last != null && now.isBefore(last.plus(backoff))) {
            return false;
        }
        preemptTried.put(operationId, now);
        return true;
    }

    void add(GangPlan plan) {
        preemptTried.remove(plan.operationId());
        plans.put(plan.operationId(), plan);
        nextPort.put(plan.masterNode(), plan.masterPort() + 1);
        if (waiting.containsKey(plan.operationId())) {
            waiting = new HashMap<>(waiting);
            waiting.remove(plan.operationId());
        }
    }

    void waiting(Map<String, GangPlanner.Waiting> why) {
        waiting = why;
    }

    GangStatus status(String operationId, ReservationBook reservations) {
        return new GangStatus(plans.get(operationId), waiting.get(operationId), restarting.contains(operationId),
                reservations.of(operationId), reservations.starvingSince(operationId));
    }

    GangPlan plan(String operationId) {
        return plans.get(operationId);
    }

    /** The ranks planned on a node that it has not started yet. */
    List<GangPlan.Rank> due(String nodeId) {
        if (plans.isEmpty()) {
            return List.of();
        }
        List<GangPlan.Rank> out = null;
        for (GangPlan plan : plans.values()) {
            if (!plan.complete()) {
                List<GangPlan.Rank> ranks = plan.due(nodeId);
                if (!ranks.isEmpty()) {
                    out = out == null ? new ArrayList<>() : out;
                    out.addAll(ranks);
                }
            }
        }
        return out == null ? List.of() : out;
    }

    boolean restarting(String operationId) {
        return restarting.contains(operationId);
    }

    void markRestarting(String operationId) {
        restarting.add(operationId);
    }

    /** A plan dropped while its started ranks stop: it holds nothing from now on. */
    void drop(String operationId) {
        plans.remove(operationId);
        dirty = true;
    }

    /** The gang has nothing running any more (or finished): its plan goes, and it may be planned again. */
    void forget(String operationId) {
        plans.remove(operationId);
        restarting.remove(operationId);
        dirty = true;
    }

    /**
     * The plans being started that must be dropped now: past their deadline, or with a planned
     * node that is gone or offline; with why.
     */
    Map<GangPlan, String> overdue(Instant now, Map<String, Node> nodes) {
        Map<GangPlan, String> out = new LinkedHashMap<>();
        for (GangPlan plan : plans.values()) {
            if (plan.complete()) {
                continue;
            }
            for (GangPlan.Rank rank : plan.ranks()) {
                Node node = nodes.get(rank.nodeId());
                if (plan.startedJobs().containsKey(rank.rank())) {
                    continue;
                }
                if (node == null || node.state() != Node.State.ONLINE) {
                    out.put(plan, "node " + rank.nodeId() + " of its plan left before it started rank " + rank.rank());
                    break;
                }
                if (!now.isBefore(plan.deadline())) {
                    out.put(plan, "node " + rank.nodeId() + " did not start rank " + rank.rank() + " within "
                            + Duration.between(plan.planned(), plan.deadline()).toSeconds() + " s of the plan");
                    break;
                }
            }
        }
        return out;
    }
}
