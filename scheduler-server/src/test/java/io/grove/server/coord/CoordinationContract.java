package io.grove.server.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.testing.Await;
import io.grove.server.coord.Coordination.Signal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Coordination} does, run against ZooKeeper ({@link ZkCoordinationTest}) and
 * against the in-memory twin ({@link MemoryCoordinationTest}): the twin is trusted by the
 * simulation because it passes the same checks as the real thing.
 */
abstract class CoordinationContract {

    static final ZkLayout LAYOUT = new ZkLayout("/grove-contract");

    /** A started member named {@code name}; its signals go to {@code signals}. */
    abstract Coordination member(String name, List<Signal> signals) throws Exception;

    /** Cuts a member from the service, as a partition would. */
    abstract void cut(Coordination member) throws Exception;

    /** Lets time pass a little: the wall clock for ZooKeeper, the injected one for the twin. */
    abstract void settle();

    final List<Signal> signalsOf() {
        return Collections.synchronizedList(new ArrayList<>());
    }

    void awaitSignal(String what, List<Signal> signals, Signal signal) {
        Await.until(what, () -> {
            settle();
            synchronized (signals) {
                return signals.contains(signal);
            }
        });
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theFirstToJoinIsElectedAndTheNextWhenItLeaves() throws Exception {
        List<Signal> toA = signalsOf();
        List<Signal> toB = signalsOf();
        Coordination a = member("a", toA);
        awaitSignal("a is elected", toA, Signal.ELECTED);
        Coordination b = member("b", toB);
        settle();
        assertFalse(toB.contains(Signal.ELECTED), "one leads at a time: " + toB);
        a.close();
        awaitSignal("b is elected once a leaves", toB, Signal.ELECTED);
        b.close();
    }

    @Test
    void epochsOnlyGrowAndAnOlderEpochsWritesAreRefusedWhole() throws Exception {
        Coordination a = member("a", signalsOf());
        Coordination b = member("b", signalsOf());
        Epoch first = a.claimEpoch();
        a.write(first, List.of(Coordination.Create.persistent(LAYOUT.root() + "/x", bytes("x"))));
        Epoch second = b.claimEpoch();
        assertTrue(second.number() > first.number(), first + " then " + second);

        CoordinationException refused = assertThrows(CoordinationException.class, () -> a.write(first,
                List.of(Coordination.Create.persistent(LAYOUT.root() + "/y", bytes("y")))));
        assertEquals(CoordinationException.Kind.FENCED, refused.kind());
        assertNull(b.read(LAYOUT.root() + "/y"), "nothing of a refused write");
        assertEquals(CoordinationException.Kind.FENCED,
                assertThrows(CoordinationException.class, () -> a.confirm(first)).kind());
        b.confirm(second);
        assertEquals("x", new String(b.read(LAYOUT.root() + "/x"), StandardCharsets.UTF_8));
        a.close();
        b.close();
    }

    @Test
    void aWriteIsAllOrNothing() throws Exception {
        Coordination a = member("a", signalsOf());
        Epoch epoch = a.claimEpoch();
        String path = LAYOUT.root() + "/twice";
        CoordinationException refused = assertThrows(CoordinationException.class, () -> a.write(epoch, List.of(
                Coordination.Create.persistent(path, bytes("1")), Coordination.Create.persistent(path, bytes("2")))));
        assertEquals(CoordinationException.Kind.REFUSED, refused.kind());
        assertNull(a.read(path), "the first step was not kept");
        a.write(epoch, List.of(Coordination.Create.persistent(path, bytes("1")), new Coordination.Put(path, bytes("2"))));
        assertEquals("2", new String(a.read(path), StandardCharsets.UTF_8));
        a.write(epoch, List.of(new Coordination.Delete(path)));
        assertNull(a.read(path));
        a.close();
    }

    @Test
    void sequentialNodesCountUpAndEphemeralOnesGoWithTheirSession() throws Exception {
        Coordination a = member("a", signalsOf());
        Coordination b = member("b", signalsOf());
        Epoch epoch = a.claimEpoch();
        List<String> created = a.write(epoch, List.of(
                new Coordination.Create(LAYOUT.logRecord(), bytes("1"), true, false),
                new Coordination.Create(LAYOUT.logRecord(), bytes("2"), true, false)));
        assertEquals(2, created.size());
        assertTrue(ZkLayout.sequenceOf(created.get(0)) < ZkLayout.sequenceOf(created.get(1)), created.toString());
        assertEquals(2, b.children(LAYOUT.log()).size());
        assertEquals(List.of(), b.children(LAYOUT.root() + "/none"));
        assertNull(b.read(LAYOUT.root() + "/none"));

        a.write(epoch, List.of(new Coordination.Create(LAYOUT.leader(), bytes("a"), false, true)));
        assertEquals("a", new String(b.read(LAYOUT.leader()), StandardCharsets.UTF_8));
        a.close();
        Await.until("a's ephemeral node goes with its session", () -> {
            settle();
            try {
                return b.read(LAYOUT.leader()) == null;
            } catch (CoordinationException e) {
                throw new IllegalStateException(e);
            }
        });
        b.close();
    }

    @Test
    void aMemberCutOffIsSuspendedAndOnceItsSessionExpiresAnotherIsElected() throws Exception {
        List<Signal> toA = signalsOf();
        List<Signal> toB = signalsOf();
        Coordination a = member("a", toA);
        awaitSignal("a is elected", toA, Signal.ELECTED);
        Coordination b = member("b", toB);
        Epoch epoch = a.claimEpoch();
        cut(a);
        awaitSignal("a is suspended", toA, Signal.SUSPENDED);
        assertFalse(a.connected());
        assertTrue(toA.indexOf(Signal.NOT_ELECTED) > toA.indexOf(Signal.ELECTED), "a hears it may not lead: " + toA);
        CoordinationException lost = assertThrows(CoordinationException.class, () -> a.confirm(epoch));
        assertEquals(CoordinationException.Kind.OUTCOME_UNKNOWN, lost.kind());
        awaitSignal("b is elected once a's session expired", toB, Signal.ELECTED);
        Epoch next = b.claimEpoch();
        assertTrue(next.number() > epoch.number());
        b.close();
    }
}
