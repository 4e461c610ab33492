package io.grove.server.ha;

import io.grove.server.coord.Coordination;
import io.grove.server.coord.CoordinationException;
import io.grove.server.coord.Epoch;
import io.grove.server.coord.ZkLayout;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link RoleMachine} and performs its effects against the coordination service, in one
 * order for the daemon and the simulation alike: claim, then start (read, serve), then write the
 * leader's record, then {@link RoleMachine.Led}; on a step-down stop first, then withdraw the
 * record, then {@link RoleMachine.Stopped}. {@link #handle} is called on the role's one thread;
 * {@link #isLeader} from any.
 */
final class RoleEffects {

    private static final Logger LOG = LoggerFactory.getLogger(RoleEffects.class);

    private final RoleMachine machine;
    private final Coordination coordination;
    private final ZkLayout layout;
    private final RolePort port;
    /** The role as other threads see it, published after every event: the lease while it leads, else {@code null}. */
    private volatile RoleMachine.Lease lease;
    private volatile Epoch epoch;
    /** The epoch it started leading under, until it stops: its record is withdrawn under it. */
    private Epoch leading;

    RoleEffects(RoleMachine machine, Coordination coordination, ZkLayout layout, RolePort port) {
        this.machine = machine;
        this.coordination = coordination;
        this.layout = layout;
        this.port = port;
    }

    /**
     * Whether it leads now: the machine's lease runs, the connection is up and was not lost since
     * the request that gave the lease. The one check behind the daemon's {@code isLeader} and the
     * simulation's invariant.
     */
    boolean isLeader() {
        RoleMachine.Lease current = lease;
        return current != null && coordination.connected()
                && current.runs(port.nanos(), coordination.interruptions());
    }

    /** The epoch claimed, while it is a candidate that claimed or the leader; else {@code null}. */
    Epoch epoch() {
        return epoch;
    }

    /** Takes one event (on the role's thread) and performs what it leads to. */
    void handle(RoleMachine.Event event) {
        List<RoleMachine.Effect> effects = machine.on(event, port.nanos());
        epoch = machine.epoch();
        lease = machine.lease();
        for (RoleMachine.Effect effect : effects) {
            perform(effect);
        }
    }

    private void perform(RoleMachine.Effect effect) {
        if (effect instanceof RoleMachine.Claim) {
            claim();
        } else if (effect instanceof RoleMachine.Lead lead) {
            lead(lead.epoch());
        } else if (effect instanceof RoleMachine.Confirm confirm) {
            port.confirmAside(() -> confirm(confirm.epoch()));
        } else if (effect instanceof RoleMachine.StepDown stepDown) {
            LOG.warn("stepping down: {}; no more scheduling, nodes go elsewhere", stepDown.why());
            port.stepDown(stepDown.why());
            withdraw();
            handle(new RoleMachine.Stopped());
        } else if (effect instanceof RoleMachine.Rejoin) {
            if (!port.closing()) {
                try {
                    coordination.rejoin();
                    handle(new RoleMachine.Rejoined());
                } catch (CoordinationException e) {
                    LOG.warn("cannot rejoin the election yet: {}; trying again", e.getMessage());
                }
            }
        } else if (effect instanceof RoleMachine.Resign) {
            port.resign();
            withdraw();
        }
    }

    private void claim() {
        long sent = port.nanos();
        long interruptions = coordination.interruptions();
        try {
            Epoch claimed = coordination.claimEpoch();
            port.claimed(claimed);
            boolean predecessor = LeaderRecord.present(coordination, layout);
            LOG.info("elected: epoch {}; reading what the previous leader wrote{}", claimed.number(), predecessor
                    ? " (its record is still there: acting only once a lease has passed)" : "");
            handle(new RoleMachine.Claimed(claimed, sent, port.nanos(), interruptions, predecessor));
        } catch (CoordinationException e) {
            handle(new RoleMachine.Failed("cannot claim an epoch: " + e.getMessage()));
        }
    }

    private void lead(Epoch claimed) {
        leading = claimed;
        try {
            LeaderRecord record = port.start(claimed);
            record.write(coordination, layout, claimed);
            port.recovered(record);
            handle(new RoleMachine.Led(claimed));
        } catch (CoordinationException e) {
            handle(e.kind() == CoordinationException.Kind.FENCED ? new RoleMachine.Fenced(claimed)
                    : new RoleMachine.Failed(e.getMessage()));
        } catch (Exception e) {
            LOG.error("cannot lead: {}", e.getMessage(), e);
            handle(new RoleMachine.Failed(String.valueOf(e.getMessage())));
        }
    }

    /** Confirms the epoch (off the role's thread) and posts the answer. */
    private void confirm(Epoch confirming) {
        long sent = port.nanos();
        long interruptions = coordination.interruptions();
        try {
            coordination.confirm(confirming);
            port.post(new RoleMachine.Confirmed(confirming, sent, interruptions));
        } catch (CoordinationException e) {
            port.post(e.kind() == CoordinationException.Kind.FENCED ? new RoleMachine.Fenced(confirming)
                    : new RoleMachine.Unconfirmed(confirming));
        }
    }

    /** Removes its record, if its epoch still holds (a newer leader's record stays). */
    private void withdraw() {
        Epoch was = leading;
        leading = null;
        if (was != null) {
            LeaderRecord.withdraw(coordination, layout, was);
        }
    }
}
