package io.grove.server.ha;

import io.grove.server.coord.Coordination.Signal;
import io.grove.server.coord.Epoch;
import io.grove.server.coord.Fencing;
import java.time.Duration;
import java.util.List;

/**
 * A scheduler's role in its high-availability group, as a state machine: events go in, one at a
 * time on one thread, with the time they happen at; effects come out, for the daemon to perform
 * (and to answer with the events they lead to). It does nothing itself — no I/O, no threads, no
 * clock — so a simulation drives it exactly as the daemon does.
 *
 * <pre>
 * FOLLOWER --elected--> CANDIDATE --claimed--> CANDIDATE(epoch) --led--> LEADER
 *     ^                     |                        |                     |
 *     |                     +--------failed / lost the election / fenced---+--> STEPPING_DOWN --stopped--> FOLLOWER
 * </pre>
 *
 * A leader acts — answers as the leader, starts jobs — only while its lease runs
 * ({@link #mayAct}); it renews the lease by confirming its epoch ({@link Fencing}).
 */
public final class RoleMachine {

    public enum Role {
        FOLLOWER, CANDIDATE, LEADER, STEPPING_DOWN, CLOSED
    }

    /** What happens to the scheduler. */
    public sealed interface Event {
    }

    /** A signal of the coordination service. */
    public record Signalled(Signal signal) implements Event {
    }

    /**
     * The epoch was claimed by a request sent at {@code sentNanos} and answered at
     * {@code answeredNanos}, when the connection had been lost {@code interruptions} times
     * ({@link io.grove.server.coord.Coordination#interruptions}); {@code predecessorAdvertised}
     * says whether an older leader's record was still there after the claim (its session lives, so
     * it may still hold a lease).
     */
    public record Claimed(Epoch epoch, long sentNanos, long answeredNanos, long interruptions,
            boolean predecessorAdvertised) implements Event {
    }

    /** The daemon leads: its state was read, it serves, and where it is was written. */
    public record Led(Epoch epoch) implements Event {
    }

    /** Claiming or leading failed (not by fencing). */
    public record Failed(String why) implements Event {
    }

    /** A confirmation sent at {@code sentNanos} (after {@code interruptions}) found the epoch still current. */
    public record Confirmed(Epoch epoch, long sentNanos, long interruptions) implements Event {
    }

    /** A write or a confirmation was refused: a newer leader claimed an epoch. */
    public record Fenced(Epoch epoch) implements Event {
    }

    /**
     * A write's outcome is unknown (the connection was lost while it was out): what the log holds
     * is known again only to a leader that reads it.
     */
    public record Uncertain(Epoch epoch) implements Event {
    }

    /** A confirmation got no answer (the connection is down): the lease is not renewed. */
    public record Unconfirmed(Epoch epoch) implements Event {
    }

    /** The daemon stopped after a step-down. */
    public record Stopped() implements Event {
    }

    /** It left the election and joined it again at its end. */
    public record Rejoined() implements Event {
    }

    /** Time passed (the daemon ticks every {@link Fencing#confirmEvery}). */
    public record Tick() implements Event {
    }

    /** The scheduler is being closed. */
    public record Close() implements Event {
    }

    /** What the daemon is to do. */
    public sealed interface Effect {
    }

    /** Claim the next epoch; answer {@link Claimed} or {@link Failed}. */
    public record Claim() implements Effect {
    }

    /** Read what is not read yet, start the daemon, write where it is; answer {@link Led}, {@link Failed} or {@link Fenced}. */
    public record Lead(Epoch epoch) implements Effect {
    }

    /** Confirm the epoch; answer {@link Confirmed}, {@link Fenced} or {@link Unconfirmed}. */
    public record Confirm(Epoch epoch) implements Effect {
    }

    /** Stop the daemon at once, without a snapshot, and withdraw where it was; answer {@link Stopped}. */
    public record StepDown(String why) implements Effect {
    }

    /**
     * Leave the election and join it again at its end, so that another may lead (the election may
     * still name this scheduler after it could not lead); asked at the tick after the step-down,
     * and at each tick until done. Answer {@link Rejoined}, or nothing when the service cannot be
     * reached.
     */
    public record Rejoin() implements Effect {
    }

    /** Stop the daemon with a final snapshot, leave the election. */
    public record Resign() implements Effect {
    }

    /**
     * A leader's lease: it may act from {@code actFrom} (an older leader's lease may run until then)
     * to before {@code end} (monotonic nanoseconds), on a connection lost exactly {@code interruptions}
     * times, as when the request that gave the lease was sent.
     */
    public record Lease(long actFrom, long end, long interruptions) {

        /** Whether it runs at {@code now} on a connection lost {@code interruptionsNow} times: the one fencing check. */
        public boolean runs(long now, long interruptionsNow) {
            return now - end < 0 && now - actFrom >= 0 && interruptionsNow == interruptions;
        }
    }

    private final Duration sessionTimeout;
    private Role role = Role.FOLLOWER;
    private Epoch epoch;
    private long leaseEnd;
    /** The connection's interruptions when the request that gave the lease was sent. */
    private long leaseInterruptions;
    /** Not before then: a predecessor's lease may run until it. */
    private long actFrom;
    private boolean connected = true;
    private boolean confirming;
    private long lastConfirmSent;
    /** Whether the election may still name this scheduler after it stepped down (it must rejoin to let another lead). */
    private boolean rejoinAfterStop;
    /** A rejoin asked for and not done yet. */
    private boolean mustRejoin;
    /** Elected while stepping down: claim once stopped. */
    private boolean electedWhileStopping;

    public RoleMachine(Duration sessionTimeout) {
        this.sessionTimeout = sessionTimeout;
    }

    public Role role() {
        return role;
    }

    /** The epoch this scheduler claimed, while it is a candidate that claimed or the leader; else {@code null}. */
    public Epoch epoch() {
        return role == Role.CANDIDATE || role == Role.LEADER ? epoch : null;
    }

    /**
     * Whether it may act as the leader at {@code now}, the connection having been lost
     * {@code interruptions} times: it leads, is connected, its lease runs, and the connection was
     * not lost since the request that gave the lease.
     */
    public boolean mayAct(long now, long interruptions) {
        Lease lease = lease();
        return lease != null && lease.runs(now, interruptions);
    }

    /** The lease while it leads and is connected, or {@code null}. */
    public Lease lease() {
        return role == Role.LEADER && connected ? new Lease(actFrom, leaseEnd, leaseInterruptions) : null;
    }

    /** Takes one event at {@code now} (monotonic nanoseconds) and says what to do. */
    public List<Effect> on(Event event, long now) {
        List<Effect> effects = take(event, now);
        checkInvariants(event);
        return effects;
    }

    /** What must hold after every event; a break is a bug in this class, named with the event that made it. */
    private void checkInvariants(Event event) {
        if (role == Role.LEADER && epoch == null) {
            throw new IllegalStateException("a leader without an epoch, after " + event);
        }
        if (role == Role.FOLLOWER && (epoch != null || confirming)) {
            throw new IllegalStateException("a follower that holds epoch " + epoch + " or confirms, after " + event);
        }
        if (role == Role.STEPPING_DOWN && confirming) {
            throw new IllegalStateException("confirming while stepping down, after " + event);
        }
    }

    private List<Effect> take(Event event, long now) {
        if (role == Role.CLOSED) {
            return List.of();
        }
        if (event instanceof Signalled signalled) {
            return on(signalled.signal());
        } else if (event instanceof Claimed claimed) {
            return claimed(claimed);
        } else if (event instanceof Led led) {
            return led(led);
        } else if (event instanceof Failed failed) {
            return role == Role.CANDIDATE ? stepDown("cannot lead: " + failed.why(), true) : List.of();
        } else if (event instanceof Confirmed confirmed) {
            return confirmed(confirmed);
        } else if (event instanceof Fenced fenced) {
            return fenced.epoch().equals(epoch) && leading()
                    ? stepDown("a newer leader fenced epoch " + fenced.epoch().number(), true) : List.of();
        } else if (event instanceof Uncertain uncertain) {
            return uncertain.epoch().equals(epoch) && leading()
                    ? stepDown("a write's outcome is unknown; the next leader reads the log again", true) : List.of();
        } else if (event instanceof Unconfirmed) {
            confirming = false;
            return List.of();
        } else if (event instanceof Stopped) {
            return stopped();
        } else if (event instanceof Rejoined) {
            mustRejoin = false;
            return List.of();
        } else if (event instanceof Tick) {
            return tick(now);
        } else if (event instanceof Close) {
            return close();
        }
        throw new IllegalArgumentException("unknown event " + event);
    }

    private List<Effect> on(Signal signal) {
        switch (signal) {
            case ELECTED -> {
                if (role == Role.FOLLOWER) {
                    mustRejoin = false;
                    role = Role.CANDIDATE;
                    epoch = null;
                    return List.of(new Claim());
                }
                if (role == Role.STEPPING_DOWN) {
                    electedWhileStopping = true;
                }
                return List.of();
            }
            case NOT_ELECTED -> {
                electedWhileStopping = false;
                return leading() ? stepDown("lost the election", false) : List.of();
            }
            case SUSPENDED -> {
                connected = false;
                electedWhileStopping = false;
                return leading() ? stepDown("the connection to ZooKeeper is suspended", false) : List.of();
            }
            case SESSION_LOST -> {
                connected = false;
                electedWhileStopping = false;
                return leading() ? stepDown("the ZooKeeper session was lost", false) : List.of();
            }
            case RECONNECTED -> {
                connected = true;
                return List.of();
            }
            default -> throw new IllegalArgumentException(String.valueOf(signal));
        }
    }

    private boolean leading() {
        return role == Role.CANDIDATE || role == Role.LEADER;
    }

    private List<Effect> claimed(Claimed claimed) {
        if (role != Role.CANDIDATE || epoch != null) {
            return List.of();
        }
        epoch = claimed.epoch();
        leaseEnd = Fencing.leaseEnd(claimed.sentNanos(), sessionTimeout);
        leaseInterruptions = claimed.interruptions();
        // an older leader whose record is still there may hold a lease granted before this claim:
        // it ends within a lease of the claim's answer
        actFrom = claimed.predecessorAdvertised() ? Fencing.leaseEnd(claimed.answeredNanos(), sessionTimeout)
                : claimed.sentNanos();
        lastConfirmSent = claimed.sentNanos();
        return List.of(new Lead(epoch));
    }

    private List<Effect> led(Led led) {
        if (role != Role.CANDIDATE || !led.epoch().equals(epoch)) {
            return List.of();
        }
        role = Role.LEADER;
        // reading and starting took part of the lease the claim gave: renew it at once
        confirming = true;
        return List.of(new Confirm(epoch));
    }

    private List<Effect> confirmed(Confirmed confirmed) {
        confirming = false;
        if (leading() && confirmed.epoch().equals(epoch) && confirmed.sentNanos() - lastConfirmSent >= 0) {
            lastConfirmSent = confirmed.sentNanos();
            long end = Fencing.leaseEnd(confirmed.sentNanos(), sessionTimeout);
            if (confirmed.interruptions() != leaseInterruptions || end - leaseEnd > 0) {
                leaseEnd = end;
                leaseInterruptions = confirmed.interruptions();
            }
        }
        return List.of();
    }

    private List<Effect> tick(long now) {
        if (role == Role.FOLLOWER && mustRejoin) {
            return List.of(new Rejoin());
        }
        if (!leading() || epoch == null || confirming) {
            return List.of();
        }
        confirming = true;
        return List.of(new Confirm(epoch));
    }

    private List<Effect> stepDown(String why, boolean rejoin) {
        role = Role.STEPPING_DOWN;
        confirming = false;
        rejoinAfterStop = rejoin;
        return List.of(new StepDown(why));
    }

    private List<Effect> stopped() {
        if (role != Role.STEPPING_DOWN) {
            return List.of();
        }
        role = Role.FOLLOWER;
        epoch = null;
        boolean rejoin = rejoinAfterStop;
        rejoinAfterStop = false;
        if (electedWhileStopping && !rejoin && connected) {
            electedWhileStopping = false;
            role = Role.CANDIDATE;
            return List.of(new Claim());
        }
        electedWhileStopping = false;
        if (rejoin) {
            // at the next tick: a scheduler that cannot lead does not claim epoch after epoch in a loop
            mustRejoin = true;
        }
        return List.of();
    }

    private List<Effect> close() {
        boolean led = leading();
        role = Role.CLOSED;
        return led ? List.of(new Resign()) : List.of();
    }
}
