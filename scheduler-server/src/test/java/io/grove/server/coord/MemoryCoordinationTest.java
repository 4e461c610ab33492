package io.grove.server.coord;

import io.grove.server.coord.Coordination.Signal;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;

/** The in-memory twin against the contract ZooKeeper passes; its time moves 50 ms at each settle. */
class MemoryCoordinationTest extends CoordinationContract {

    long now;
    MemoryEnsemble ensemble;

    @BeforeEach
    void ensemble() {
        ensemble = new MemoryEnsemble(() -> now, Duration.ofSeconds(3), LAYOUT);
    }

    @Override
    Coordination member(String name, List<Signal> signals) throws Exception {
        MemoryCoordination member = ensemble.client(name);
        member.start(signals::add);
        return member;
    }

    @Override
    void cut(Coordination member) {
        ((MemoryCoordination) member).partition(true);
    }

    @Override
    void settle() {
        now += Duration.ofMillis(50).toNanos();
        ensemble.advance();
    }
}
