package io.grove.server.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.server.coord.Coordination.Signal;
import io.grove.server.coord.Epoch;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The role as a pure state machine: events in, effects out, the lease by the given time. */
class RoleMachineTest {

    static final Duration SESSION = Duration.ofSeconds(6);
    static final long MS = 1_000_000L;
    final RoleMachine machine = new RoleMachine(SESSION);
    final Epoch epoch = new Epoch(3, 7);

    List<RoleMachine.Effect> on(RoleMachine.Event event, long now) {
        return machine.on(event, now);
    }

    /** Elected, claimed at {@code at} (no older leader's record), led. */
    void lead(long at) {
        assertEquals(List.of(new RoleMachine.Claim()), on(new RoleMachine.Signalled(Signal.ELECTED), at));
        assertEquals(List.of(new RoleMachine.Lead(epoch)), on(new RoleMachine.Claimed(epoch, at, at, 0, false), at));
        assertEquals(List.of(new RoleMachine.Confirm(epoch)), on(new RoleMachine.Led(epoch), at), "renews at once");
        assertEquals(RoleMachine.Role.LEADER, machine.role());
    }

    @Test
    void aLeaderActsUntilItsLeaseEndsAndAConfirmationRenewsIt() {
        lead(0);
        assertTrue(machine.mayAct(2_999 * MS, 0));
        assertFalse(machine.mayAct(3_000 * MS, 0), "a lease is half the session timeout from the claim's send");
        on(new RoleMachine.Confirmed(epoch, 2_000 * MS, 0), 2_010 * MS);
        assertTrue(machine.mayAct(4_999 * MS, 0));
        assertFalse(machine.mayAct(5_000 * MS, 0));
        on(new RoleMachine.Confirmed(epoch, 1_000 * MS, 0), 5_000 * MS);
        assertFalse(machine.mayAct(5_000 * MS, 0), "an older confirmation answered late does not renew it");
    }

    @Test
    void aLostConnectionEndsTheLeaseAtOnceAndStepsDown() {
        lead(0);
        assertFalse(machine.mayAct(1 * MS, 1), "the connection was lost since the lease was given");
        List<RoleMachine.Effect> effects = on(new RoleMachine.Signalled(Signal.SUSPENDED), 2 * MS);
        assertEquals(List.of(new RoleMachine.StepDown("the connection to ZooKeeper is suspended")), effects);
        assertEquals(RoleMachine.Role.STEPPING_DOWN, machine.role());
        on(new RoleMachine.Stopped(), 3 * MS);
        assertEquals(RoleMachine.Role.FOLLOWER, machine.role());
        assertFalse(machine.mayAct(4 * MS, 1));
    }

    @Test
    void aFencedLeaderStepsDownAndRejoinsTheElection() {
        lead(0);
        assertEquals(List.of(new RoleMachine.StepDown("a newer leader fenced epoch 3")),
                on(new RoleMachine.Fenced(epoch), 10 * MS));
        assertEquals(List.of(), on(new RoleMachine.Fenced(epoch), 11 * MS), "told once");
        assertEquals(List.of(), on(new RoleMachine.Stopped(), 12 * MS));
        assertEquals(RoleMachine.Role.FOLLOWER, machine.role());
        assertEquals(List.of(new RoleMachine.Rejoin()), on(new RoleMachine.Tick(), 500 * MS), "at the next tick");
        assertEquals(List.of(new RoleMachine.Rejoin()), on(new RoleMachine.Tick(), 1_000 * MS),
                "a rejoin that could not be done is asked again");
        on(new RoleMachine.Rejoined(), 510 * MS);
        assertEquals(List.of(), on(new RoleMachine.Tick(), 1_000 * MS));
    }

    @Test
    void anOlderLeadersRecordMakesTheNewOneWaitOutALease() {
        on(new RoleMachine.Signalled(Signal.ELECTED), 0);
        on(new RoleMachine.Claimed(epoch, 0, 100 * MS, 0, true), 100 * MS);
        on(new RoleMachine.Led(epoch), 200 * MS);
        on(new RoleMachine.Confirmed(epoch, 200 * MS, 0), 210 * MS);
        assertFalse(machine.mayAct(3_000 * MS, 0), "the older leader's lease may run until 3.1 s");
        assertTrue(machine.mayAct(3_100 * MS, 0));
    }

    @Test
    void aCandidateThatCannotLeadStepsDownAndLetsAnotherTry() {
        on(new RoleMachine.Signalled(Signal.ELECTED), 0);
        on(new RoleMachine.Claimed(epoch, 0, 0, 0, false), 0);
        assertEquals(List.of(new RoleMachine.StepDown("cannot lead: the log cannot be read")),
                on(new RoleMachine.Failed("the log cannot be read"), 1 * MS));
        assertFalse(machine.mayAct(2 * MS, 0));
    }

    @Test
    void aWriteOfUnknownOutcomeStepsDownAndRejoins() {
        lead(0);
        assertEquals(List.of(new RoleMachine.StepDown("a write's outcome is unknown; the next leader reads the log again")),
                on(new RoleMachine.Uncertain(epoch), 10 * MS));
        assertEquals(List.of(), on(new RoleMachine.Stopped(), 11 * MS));
        assertEquals(List.of(new RoleMachine.Rejoin()), on(new RoleMachine.Tick(), 500 * MS));
    }

    @Test
    void electedWhileSteppingDownItClaimsOnceStopped() {
        lead(0);
        on(new RoleMachine.Signalled(Signal.NOT_ELECTED), 1 * MS);
        on(new RoleMachine.Signalled(Signal.ELECTED), 2 * MS);
        assertEquals(List.of(new RoleMachine.Claim()), on(new RoleMachine.Stopped(), 3 * MS));
        assertEquals(RoleMachine.Role.CANDIDATE, machine.role());
    }

    @Test
    void ticksConfirmOneAtATimeAndClosingResigns() {
        lead(0);
        assertEquals(List.of(), on(new RoleMachine.Tick(), 1_000 * MS), "the confirmation after leading is out");
        on(new RoleMachine.Unconfirmed(epoch), 1_100 * MS);
        assertEquals(List.of(new RoleMachine.Confirm(epoch)), on(new RoleMachine.Tick(), 2_000 * MS));
        assertEquals(List.of(new RoleMachine.Resign()), on(new RoleMachine.Close(), 2_100 * MS));
        assertEquals(List.of(), on(new RoleMachine.Signalled(Signal.ELECTED), 2_200 * MS));
        assertEquals(RoleMachine.Role.CLOSED, machine.role());
    }
}
