package io.grove.core.node;

import io.grove.core.operation.Job;
import io.grove.core.operation.JobsById;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * An exec node as the scheduler knows it: its tags and limits from its last heartbeat, its pool
 * tree, whether it is online, and the jobs the scheduler placed on it (in start order).
 */
public final class Node {

    /** Whether the scheduler hears from the node. */
    public enum State {
        /** Heartbeating. */
        ONLINE,
        /** Silent past {@code node_heartbeat_timeout}; its jobs are kept for now. */
        OFFLINE
    }

    private final String id;
    private Set<String> tags;
    private NodeTopology topology = NodeTopology.NONE;
    private Resources limits;
    private NodeCondition condition = NodeCondition.UNKNOWN;
    private String tree;
    private String treeProblem;
    private boolean matchesSeveralTrees;
    private State state = State.ONLINE;
    private Instant lastHeartbeat;
    private Instant lastPreemptivePass;
    /** The scheduler's jobs here in start order, and the same by id. */
    private final ArrayList<Job> jobs = new ArrayList<>();
    private final JobsById jobsById = new JobsById();
    private final double[] usage = new double[ResourceType.COUNT];
    private final Map<String, String> endedByScheduler = new LinkedHashMap<>();
    /** Those of them the scheduler never placed here (see {@link #unknownRunning}). */
    private final Set<String> unknownRunning = new HashSet<>();
    /** Running jobs to stop gracefully at the node's next heartbeat (a gang's other ranks, a time limit). */
    private final Map<String, Interrupt> toInterrupt = new LinkedHashMap<>();
    /** The address its connection comes from, which a gang's ranks reach it at; {@code null}: unknown. */
    private String address;
    /** Its drain by an administrator, or {@code null}. */
    private NodeDrain drain;
    /** The most of each resource it has offered since the scheduler came to know it. */
    private Resources peakLimits;

    public Node(String id, Set<String> tags, Resources limits, Instant now) {
        this.id = id;
        this.tags = Set.copyOf(tags);
        this.limits = limits;
        this.peakLimits = limits;
        this.lastHeartbeat = now;
    }

    public String id() {
        return id;
    }

    public Set<String> tags() {
        return tags;
    }

    /** Where the node sits in the network, as it last said. */
    public NodeTopology topology() {
        return topology;
    }

    /** The node says where it sits (in its handshake, and with every heartbeat after). */
    public void topology(NodeTopology newTopology) {
        if (newTopology != topology && !newTopology.equals(topology)) {
            this.topology = newTopology;
        }
    }

    public Resources limits() {
        return limits;
    }

    /** The pool tree the node belongs to, or {@code null} (see {@link #treeProblem()}). */
    public String tree() {
        return tree;
    }

    /** Why the node has no tree, or {@code null}. */
    public String treeProblem() {
        return treeProblem;
    }

    public State state() {
        return state;
    }

    public Instant lastHeartbeat() {
        return lastHeartbeat;
    }

    /** When a preemptive pass last ran on this node, or {@code null}. */
    public Instant lastPreemptivePass() {
        return lastPreemptivePass;
    }

    /** The scheduler's jobs on this node, oldest first; do not modify. */
    public Collection<Job> jobs() {
        return Collections.unmodifiableCollection(jobs);
    }

    /** The sum of the resources of the scheduler's jobs on this node. */
    public Resources usage() {
        double[] copy = usage.clone();
        for (int r = 0; r < copy.length; r++) {
            copy[r] = Math.max(0, copy[r]);
        }
        return Resources.of(copy);
    }

    /** The free disk for jobs and whether the node can start jobs, from its last heartbeat. */
    public NodeCondition condition() {
        return condition;
    }

    /**
     * The most of each resource the node has offered since the scheduler came to know it: its size,
     * though what it offers now may be less for a while (a Resource Broker's tasks hold some).
     */
    public Resources peakLimits() {
        return peakLimits;
    }

    /** Its drain by an administrator, or {@code null} when it is not drained. */
    public NodeDrain drain() {
        return drain;
    }

    public void drain(NodeDrain newDrain) {
        this.drain = newDrain;
    }

    /** Whether new jobs may start here: it says it can and it is not drained. */
    public boolean schedulable() {
        return drain == null && condition.schedulable();
    }

    /** Why no new job starts here (its drain first, then what it says), or {@code null} when they do. */
    public String unschedulable() {
        return drain != null ? drain.describe() : condition.unschedulable();
    }

    /** A heartbeat arrived: its tags, limits and condition. */
    public void heard(Set<String> newTags, Resources newLimits, NodeCondition newCondition, Instant now) {
        if (!newCondition.equals(condition)) {
            this.condition = newCondition;
        }
        heard(newTags, newLimits, now);
    }

    public void heard(Set<String> newTags, Resources newLimits, Instant now) {
        // Unchanged values keep their objects: a heartbeat a second from every node would otherwise
        // leave young copies hanging off old nodes, for the collector to copy and to scan for.
        if (!newTags.equals(tags)) {
            this.tags = Set.copyOf(newTags);
        }
        if (!newLimits.equals(limits)) {
            this.limits = newLimits;
            this.peakLimits = peakLimits.max(newLimits);
        }
        this.lastHeartbeat = now;
        this.state = State.ONLINE;
    }

    /**
     * Sets the node's tree, or none with the reason.
     *
     * @param newTree the tree, or {@code null}
     * @param problem why there is none, or {@code null}
     * @param several whether the node matched more than one tree (else none)
     */
    public void assignTree(String newTree, String problem, boolean several) {
        this.tree = newTree;
        this.treeProblem = problem;
        this.matchesSeveralTrees = several;
    }

    /** Whether the node has no tree because it matches more than one. */
    public boolean matchesSeveralTrees() {
        return matchesSeveralTrees;
    }

    public void markOffline() {
        this.state = State.OFFLINE;
    }

    public void preemptivePassAt(Instant now) {
        this.lastPreemptivePass = now;
    }

    public void addJob(Job job) {
        Job replaced = jobsById.put(job);
        if (replaced != null) {
            jobs.remove(replaced);
            add(replaced.resources(), -1);
        }
        jobs.add(job);
        add(job.resources(), 1);
    }

    public void removeJob(Job job) {
        toInterrupt.remove(job.id());
        Job removed = jobsById.remove(job);
        if (removed != null) {
            removeByIdentity(removed);
            add(removed.resources(), -1);
        }
    }

    /** Oldest first: jobs mostly end in the order they started. */
    private void removeByIdentity(Job job) {
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i) == job) {
                jobs.remove(i);
                return;
            }
        }
    }

    private void add(Resources amount, int sign) {
        for (int r = 0; r < usage.length; r++) {
            usage[r] += sign * amount.get(r);
        }
    }

    /** Whether the scheduler placed this running job on this node. */
    public boolean hasJob(String jobId) {
        return jobsById.get(jobId) != null;
    }

    /** Remembers that the scheduler ended a job the node may still run, and why; the node is told to kill it. */
    public void endedByScheduler(String jobId, String why) {
        endedByScheduler.put(jobId, why);
    }

    /**
     * Remembers a job the node runs that the scheduler does not place there (it ended while the
     * node was out of touch, or was never the scheduler's); the node is told to kill it, as an
     * ended one, until it reports it ended.
     */
    public void unknownRunning(String jobId, String why) {
        endedByScheduler.put(jobId, why);
        unknownRunning.add(jobId);
    }

    /** Whether the node was told to kill this job because the scheduler does not place it there. */
    public boolean runsUnknown(String jobId) {
        return unknownRunning.contains(jobId);
    }

    /** Why the scheduler ended a job this node still reports, or {@code null}. */
    public String whyEnded(String jobId) {
        return endedByScheduler.get(jobId);
    }

    /** Whether the node may still run jobs the scheduler ended. */
    public boolean hasEndedByScheduler() {
        return !endedByScheduler.isEmpty();
    }

    /** The jobs the scheduler ended that the node may still run, with why, in the order they ended. */
    public Map<String, String> endedBySchedulerView() {
        return Collections.unmodifiableMap(endedByScheduler);
    }

    /** The node reported the job ended: nothing more to tell it. */
    public void forgetEnded(String jobId) {
        endedByScheduler.remove(jobId);
        unknownRunning.remove(jobId);
    }

    /** Forgets ended jobs the node no longer reports. */
    public void forgetEndedExcept(Set<String> stillReported) {
        endedByScheduler.keySet().retainAll(stillReported);
        unknownRunning.retainAll(stillReported);
    }

    /** The address its connection comes from (a gang's {@code MASTER_ADDR} and hosts); {@code null}: unknown. */
    public String address() {
        return address;
    }

    /** Takes the address its connection comes from; {@code null} keeps the one known. */
    public void address(String newAddress) {
        if (newAddress != null) {
            this.address = newAddress;
        }
    }

    /**
     * Why a running job is to be stopped at the next heartbeat.
     *
     * @param reason the preemption's reason as the API writes it ({@code gang_restart}, {@code time_limit},
     *     {@code starvation} for a gang's room)
     * @param why the full reason for the job's view and logs
     * @param preemptorOperationId the operation the room goes to, or {@code null}
     */
    public record Interrupt(String reason, String why, String preemptorOperationId) {
    }

    /** Asks for a running job to be stopped gracefully at the node's next heartbeat. */
    public void interrupt(String jobId, String reason, String why) {
        interrupt(jobId, reason, why, null);
    }

    /**
     * Asks for a running job to be stopped at the node's next heartbeat, its room going to
     * {@code preemptor}. A preemption that takes it at once (for a gang's room) stands against a
     * later graceful stop (its gang's restart), so that the room it was taken for is free.
     */
    public void interrupt(String jobId, String reason, String why, String preemptor) {
        Interrupt before = toInterrupt.get(jobId);
        if (before != null && graceful(reason) && !graceful(before.reason())) {
            return;
        }
        toInterrupt.put(jobId, new Interrupt(reason, why, preemptor));
    }

    /** Whether an interrupt of this reason leaves the job its graceful grace. */
    private static boolean graceful(String reason) {
        return "gang_restart".equals(reason) || "time_limit".equals(reason);
    }

    /** Whether some running job is to be stopped gracefully at the next heartbeat. */
    public boolean hasInterrupts() {
        return !toInterrupt.isEmpty();
    }

    /** The jobs to stop gracefully at the next heartbeat, with why, in the order asked. */
    public Map<String, Interrupt> toInterruptView() {
        return Collections.unmodifiableMap(toInterrupt);
    }

    /** The node was told to stop the job (or it ended): nothing more to ask. */
    public void interrupted(String jobId) {
        toInterrupt.remove(jobId);
    }
}
