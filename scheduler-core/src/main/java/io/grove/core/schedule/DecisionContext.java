package io.grove.core.schedule;

import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.TaskSpec;
import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The working state of one heartbeat decision: what is free on the node, the jobs planned so far
 * (precommitted into the index) and the jobs released, with an undo log so that the index is left
 * exactly as it was. A decision only plans; applying it is the scheduler's job.
 */
final class DecisionContext {

    final SchedulingIndex index;
    final Node node;
    final Instant now;
    final double[] free;
    /** Disk space the node has for new jobs, less what this decision planned (not a resource of fair shares). */
    long diskFree;
    final List<Decision.JobStart> starts = new ArrayList<>();
    final List<Decision.JobPreemption> preemptions = new ArrayList<>();
    final List<Decision.JobAbort> aborts = new ArrayList<>();
    final Set<String> released = new HashSet<>();
    final Map<Decision.IdleCode, Integer> idle = new EnumMap<>(Decision.IdleCode.class);
    /** The tree's offers for starving operations (read only), or {@code null}: every node takes for itself. */
    final PreemptionOffers offers;
    /** The starving operations this decision offered for (or tried to), and the offers it makes: made when first needed. */
    private Set<String> offered = Set.of();
    List<Decision.PreemptionOffer> offersMade = List.of();
    /** The gang reservation holding this node, or {@code null} (docs/scheduling.md#reservations-with-backfill). */
    private GangReservation reservation;
    /** What the gang plans hold on the node (for its reservation's room). */
    private Resources planHeld = Resources.ZERO;
    /** What jobs that may run past the reservation's start can still have here: made when first needed. */
    private double[] longRoom;
    /** Active operations left when nothing more fit in what is free: fragmentation, untried. */
    int unfitLeft;
    private final List<Integer> plannedOperations = new ArrayList<>();
    private final List<int[]> deactivated = new ArrayList<>();
    private final List<Object[]> usageChanges = new ArrayList<>();
    /** Elements whose tag filter the node does not match, out of this decision with everything below them. */
    private final Set<Integer> unmatched = new HashSet<>();

    DecisionContext(SchedulingIndex index, Node node, Resources limits, Instant now, PreemptionOffers offers) {
        this.index = index;
        this.offers = offers;
        this.node = node;
        this.now = now;
        double[] limit = limits.toArray();
        double[] used = node.usage().toArray();
        this.diskFree = node.condition().diskForJobs();
        this.free = new double[limit.length];
        for (int r = 0; r < free.length; r++) {
            free[r] = limit[r] - used[r];
        }
    }

    /** The node is held by a gang's reservation; {@code due}: the gang ranks planned here, which hold their part. */
    void reserved(GangReservation value, List<GangPlan.Rank> due) {
        this.reservation = value;
        double[] held = new double[SchedulingIndex.N];
        for (GangPlan.Rank rank : due) {
            double[] wants = rank.resources().toArray();
            for (int r = 0; r < held.length; r++) {
                held[r] += wants[r];
            }
        }
        this.planHeld = Resources.of(held);
    }

    /** The reservation holding the node, or {@code null}. */
    GangReservation reservation() {
        return reservation;
    }

    /**
     * Whether a job of the task at {@code position} of operation {@code at} may start here within
     * {@code room} as far as the node's reservation goes: the reserved gang's own, one bounded to end
     * by the reservation's start, or one that fits beside what the gang needs.
     */
    boolean backfills(int at, int position, double[] room) {
        if (endsBeforeReservation(at, position)) {
            return true;
        }
        double[] job = index.operations[at].jobVector(position);
        double[] beside = longRoom();
        for (int r = 0; r < job.length; r++) {
            if (job[r] > Math.min(room[r], beside[r]) + 1e-9) {
                return false;
            }
        }
        return true;
    }

    /** Whether a job of the task would be done before the node's reservation starts (or nothing reserves it). */
    boolean endsBeforeReservation(int at, int position) {
        return reservation == null || index.operations[at].id().equals(reservation.operationId())
                || Reservations.endsBy(index, at, position, now, reservation.start());
    }

    private double[] longRoom() {
        if (longRoom == null) {
            longRoom = Reservations.longRoom(index, node, reservation, planHeld, released);
        }
        return longRoom;
    }

    /** Plans a start of the task at {@code position} for operation {@code at} and precommits it. */
    Decision.JobStart plan(int at, int position, boolean preemptive) {
        Operation operation = index.operations[at];
        int[] before = index.plans.plannedTasks(at);
        int offsetInTask = before == null ? 0 : before[position];
        return plan(at, position, operation.pendingIndex(operation.task(position).name(), offsetInTask), Map.of(),
                preemptive);
    }

    /** Plans the start of a gang's rank on this node (its index and variables fixed by its plan). */
    Decision.JobStart planRank(int at, GangPlan.Rank rank) {
        return plan(at, rank.position(), rank.index(), rank.env(), false);
    }

    private Decision.JobStart plan(int at, int position, int jobIndex, Map<String, String> extraEnv, boolean preemptive) {
        Operation operation = index.operations[at];
        TaskSpec task = operation.task(position);
        if (index.plans.count(at) == 0) {
            plannedOperations.add(at);
        }
        String jobId = operation.nextJobId(index.plans.count(at));
        index.plans.planTask(at, position);
        double[] job = operation.jobVector(position);
        take(job);
        if (longRoom != null && !operation.id().equals(reservation.operationId())
                && !Reservations.endsBy(index, at, position, now, reservation.start())) {
            for (int r = 0; r < longRoom.length; r++) {
                longRoom[r] -= job[r];
            }
        }
        diskFree -= task.diskSpace();
        changeUsage(at, job, 1);
        Map<String, String> env = task.env();
        if (!extraEnv.isEmpty()) {
            env = new LinkedHashMap<>(task.env());
            env.putAll(extraEnv);
        }
        Decision.JobStart start = new Decision.JobStart(jobId, operation.id(), task.name(), jobIndex, task.command(),
                env, task.jobResources(), preemptive, task.diskSpace(), index.config.jobDefaults(), task.image());
        starts.add(start);
        return start;
    }

    /** The node offers what it would lose for a starving operation. */
    void offers(Decision.PreemptionOffer offer) {
        if (offersMade.isEmpty()) {
            offersMade = new ArrayList<>();
        }
        offersMade.add(offer);
    }

    /** Notes that this decision tried a starving operation; {@code false} when it did already. */
    boolean tries(String operationId) {
        if (offered.isEmpty()) {
            offered = new HashSet<>();
        }
        return offered.add(operationId);
    }

    /** Whether this decision interrupts the job already (each job is interrupted once, for its first reason). */
    boolean interrupts(String jobId) {
        for (Decision.JobPreemption preemption : preemptions) {
            if (preemption.jobId().equals(jobId)) {
                return true;
            }
        }
        return false;
    }

    /** Frees a running job's resources for the rest of the decision. */
    void release(Job job) {
        released.add(job.id());
        double[] resources = job.resources().toArray();
        if (longRoom != null && Reservations.runsPast(index, job, reservation)) {
            for (int r = 0; r < longRoom.length; r++) {
                longRoom[r] += resources[r];
            }
        }
        for (int r = 0; r < free.length; r++) {
            free[r] += resources[r];
        }
        int at = index == null ? -1 : index.indexOf(job.operationId());
        if (at >= 0) {
            changeUsage(at, resources, -1);
        }
    }

    private void take(double[] job) {
        for (int r = 0; r < free.length; r++) {
            free[r] -= job[r];
        }
    }

    private void changeUsage(int at, double[] job, int sign) {
        index.addUsage(at, job, sign);
        usageChanges.add(new Object[] {at, job, sign});
    }

    /** Takes an operation out of this decision, with the reason. */
    void deactivate(int at, Decision.IdleCode code) {
        index.deactivated[at] = true;
        index.refresh(at);
        deactivated.add(new int[] {at});
        idle.merge(code, 1, Integer::sum);
    }

    /** Takes out, for this decision, every element whose tag filter does not match the node. */
    void excludeUnmatchedTags() {
        if (index.tagFilters.isEmpty()) {
            return;
        }
        for (int at : index.tagFilters.unmatched(node.tags())) {
            // elements come parents first: one below an excluded pool is counted with it already
            boolean coveredAbove = index.parent[at] >= 0 && excludedByTags(index.parent[at]);
            unmatched.add(at);
            if (!coveredAbove && !index.deactivated[at]) {
                idle.merge(Decision.IdleCode.UNMATCHED_TAGS, Math.max(1, index.activeCount(at)), Integer::sum);
                index.deactivated[at] = true;
                index.refresh(at);
                deactivated.add(new int[] {at});
            }
        }
    }

    /** Whether the element or an ancestor has a tag filter the node does not match. */
    boolean excludedByTags(int at) {
        if (unmatched.isEmpty()) {
            return false;
        }
        for (int e = at; e >= 0; e = index.parent[e]) {
            if (unmatched.contains(e)) {
                return true;
            }
        }
        return false;
    }

    /** A pool none of whose active operations fits in what is free: out of this decision, its operations counted. */
    void deactivatePool(int at) {
        idle.merge(Decision.IdleCode.FRAGMENTATION, index.activeCount(at), Integer::sum);
        index.deactivated[at] = true;
        index.refresh(at);
        deactivated.add(new int[] {at});
    }

    boolean hasFreeSlot() {
        return free[0] >= 1 - 1e-9;
    }

    /**
     * Leaves the index as it was before the decision: usage changes are reverted, plans and
     * deactivations cleared, and each touched operation's path refreshed once.
     */
    void undo() {
        if (index == null) {
            return;
        }
        for (int i = usageChanges.size() - 1; i >= 0; i--) {
            Object[] change = usageChanges.get(i);
            index.addUsageOnly((Integer) change[0], (double[]) change[1], -(Integer) change[2]);
        }
        for (int[] at : deactivated) {
            index.deactivated[at[0]] = false;
        }
        for (int at : plannedOperations) {
            index.plans.clearPlanned(at);
        }
        for (Object[] change : usageChanges) {
            index.refresh((Integer) change[0]);
        }
        for (int[] at : deactivated) {
            index.refresh(at[0]);
        }
    }

    Resources freeResources() {
        double[] copy = free.clone();
        for (int r = 0; r < copy.length; r++) {
            copy[r] = Math.max(0, copy[r]);
        }
        return Resources.of(copy);
    }
}
