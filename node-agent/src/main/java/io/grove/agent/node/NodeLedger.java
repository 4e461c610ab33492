package io.grove.agent.node;

import io.grove.agent.broker.BrokerResources;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;

/**
 * Keeps scheduler jobs and broker tasks from booking the same CPU and memory of a node.
 *
 * <p>The rule: the agent offers the scheduler the node's resources minus a <em>broker share</em>
 * {@code S}, declared in every heartbeat as {@code max(reserve, what broker tasks hold)}. While a
 * heartbeat is in flight (sent, reply not yet applied) the scheduler may be placing jobs into
 * {@code node - S}, so broker tasks may hold at most {@code S}. Between heartbeats the broker may
 * also take what jobs leave free ({@code node - jobs}); when it does, {@code S} grows at once so the
 * next heartbeat offers less. Hence {@code jobs + broker <= node} at all times, as long as the
 * scheduler keeps within the limits it was offered. Pure and single-threaded.
 */
public final class NodeLedger {

    private final Resources node;
    private final BrokerResources reserve;
    private BrokerResources jobs = BrokerResources.ZERO;
    private BrokerResources broker = BrokerResources.ZERO;
    private BrokerResources declared;
    private boolean heartbeatInFlight;
    /** GPUs in service, when fewer than the node has; -1 for all. */
    private int gpusInService = -1;

    /**
     * @param node everything the node has (CPU, memory and the other resources)
     * @param reserve the part kept for broker tasks at all times
     */
    public NodeLedger(Resources node, BrokerResources reserve) {
        this.node = node;
        this.reserve = reserve.min(capacity(node));
        this.declared = this.reserve;
    }

    /** A heartbeat goes out: declares the broker share and returns the limits to offer the scheduler. */
    public Resources heartbeatSent() {
        declared = reserve.max(broker);
        heartbeatInFlight = true;
        return offered();
    }

    /** The reply of the heartbeat in flight was applied (its jobs accepted). */
    public void replyApplied() {
        heartbeatInFlight = false;
    }

    /** The connection dropped: no reply is coming. */
    public void heartbeatLost() {
        heartbeatInFlight = false;
    }

    /** What the scheduler is offered now: the node minus the declared broker share. */
    public Resources offered() {
        Resources offered = node.with(ResourceType.CPU, Math.max(0, node.cpu() - declared.cpu()))
                .with(ResourceType.MEMORY, Math.max(0, node.memory() - declared.memory()));
        return gpusInService < 0 ? offered : offered.with(ResourceType.GPU, Math.min(node.gpu(), gpusInService));
    }

    /** How many of the node's GPUs are in service: only those are offered. */
    public void gpusInService(int count) {
        this.gpusInService = count;
    }

    /** A job was accepted (it holds its resources until it ends). */
    public void jobStarted(Resources resources) {
        jobs = jobs.plus(of(resources));
    }

    public void jobEnded(Resources resources) {
        jobs = jobs.minus(of(resources));
    }

    /** What broker tasks hold now; grows the declared share when it goes beyond it. */
    public void brokerHolds(BrokerResources held) {
        broker = held;
        declared = declared.max(held);
    }

    /** The most broker tasks may hold together now. */
    public BrokerResources brokerCapacity() {
        if (heartbeatInFlight) {
            return declared;
        }
        return declared.max(capacity(node).minus(jobs));
    }

    public BrokerResources jobs() {
        return jobs;
    }

    public BrokerResources declared() {
        return declared;
    }

    static BrokerResources of(Resources resources) {
        return new BrokerResources(Math.round(resources.cpu() * 1000), Math.round(resources.memory()));
    }

    private static BrokerResources capacity(Resources node) {
        return of(node);
    }
}
