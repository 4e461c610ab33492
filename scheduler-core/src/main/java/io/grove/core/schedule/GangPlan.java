package io.grove.core.schedule;

import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A gang's plan: a node for every rank, chosen at once from the tree's nodes, held until every
 * planned node has taken its starts (a heartbeat each, asked for at once) or dropped whole.
 * The scheduler's thread owns it; readers get copies through the cluster's view.
 */
public final class GangPlan {

    /**
     * One rank.
     *
     * @param operationId the gang
     * @param rank its number in the gang (task by task in the spec's order, then job index)
     * @param position its task's position in the spec
     * @param task its task's name
     * @param index its job index within the task
     * @param nodeId the node it starts on
     * @param resources what it orders
     * @param env the variables its job gets: {@code GROVE_GANG_RANK}, {@code RANK}, {@code MASTER_ADDR}, ...
     */
    public record Rank(String operationId, int rank, int position, String task, int index, String nodeId, Resources resources,
            Map<String, String> env) {

        public Rank {
            env = Collections.unmodifiableMap(new TreeMap<>(env));
        }
    }

    /**
     * A job taken to make room for the gang.
     *
     * @param reason the preemption's reason as the API writes it ({@code starvation}, {@code aggressive_starvation})
     * @param why the full reason for the victim's view
     */
    public record Victim(String jobId, String nodeId, String reason, String why) {
    }

    private final String operationId;
    private final String tree;
    private final List<Victim> victims;
    private final Instant planned;
    private final Instant deadline;
    private final String domain;
    private final List<Rank> ranks;
    private final int masterPort;
    /** Job id by rank, for the ranks started so far. */
    private final Map<Integer, String> started = new TreeMap<>();

    public GangPlan(String operationId, String tree, Instant planned, Instant deadline, String domain, List<Rank> ranks,
            int masterPort) {
        this(operationId, tree, planned, deadline, domain, ranks, masterPort, List.of());
    }

    /** A plan whose room is made by taking {@code victims} (docs/scheduling.md#preemption-for-gangs). */
    public GangPlan(String operationId, String tree, Instant planned, Instant deadline, String domain, List<Rank> ranks,
            int masterPort, List<Victim> victims) {
        this.victims = List.copyOf(victims);
        this.operationId = operationId;
        this.tree = tree;
        this.planned = planned;
        this.deadline = deadline;
        this.domain = domain;
        this.ranks = List.copyOf(ranks);
        this.masterPort = masterPort;
    }

    public String operationId() {
        return operationId;
    }

    public String tree() {
        return tree;
    }

    /** When it was made. */
    public Instant planned() {
        return planned;
    }

    /** When it is dropped whole unless every rank started. */
    public Instant deadline() {
        return deadline;
    }

    /** The domain of its topology level it sits in, e.g. {@code rack r07}; {@code null} when it spans or has none. */
    public String domain() {
        return domain;
    }

    /** The jobs taken to make its room (none when it fit in what was free). */
    public List<Victim> victims() {
        return victims;
    }

    /** Its ranks by number. */
    public List<Rank> ranks() {
        return ranks;
    }

    /** The port rank 0 listens on ({@code MASTER_PORT}). */
    public int masterPort() {
        return masterPort;
    }

    /** The node of rank 0 (where {@code MASTER_ADDR} points). */
    public String masterNode() {
        return ranks.get(0).nodeId();
    }

    /** The ranks planned on a node that have not started yet. */
    public List<Rank> due(String nodeId) {
        List<Rank> out = new ArrayList<>();
        for (Rank rank : ranks) {
            if (rank.nodeId().equals(nodeId) && !started.containsKey(rank.rank())) {
                out.add(rank);
            }
        }
        return out;
    }

    /** The rank of a task's job index, or {@code null} when the plan has none. */
    public Rank rankOf(String task, int index) {
        for (Rank rank : ranks) {
            if (rank.task().equals(task) && rank.index() == index) {
                return rank;
            }
        }
        return null;
    }

    /** A rank's job started. */
    public void started(int rank, String jobId) {
        started.put(rank, jobId);
    }

    /** The started ranks' job ids, by rank. */
    public Map<Integer, String> startedJobs() {
        return Collections.unmodifiableMap(started);
    }

    /** Whether every rank has started. */
    public boolean complete() {
        return started.size() == ranks.size();
    }

    /** The distinct nodes, in the order of their lowest rank. */
    public List<String> nodes() {
        List<String> out = new ArrayList<>();
        for (Rank rank : ranks) {
            if (!out.contains(rank.nodeId())) {
                out.add(rank.nodeId());
            }
        }
        return out;
    }

    /** {@code 4 ranks on n1, n2 in rack r07}, for events and logs. */
    public String describe() {
        return ranks.size() + " rank" + (ranks.size() == 1 ? "" : "s") + " on " + String.join(", ", nodes())
                + (domain == null ? "" : " in " + domain);
    }
}
