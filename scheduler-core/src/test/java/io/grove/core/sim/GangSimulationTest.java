package io.grove.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterSettings;
import io.grove.core.cluster.GangListener;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationType;
import io.grove.core.pool.GangReservations;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.StarvationSettings;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.GangReservation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random GPU clusters in blocks and racks, with gangs of every kind of topology among
 * one-GPU jobs, nodes lost and back, every other seed with time limits and gang reservations: after
 * every event no gang runs partially and none runs outside its required domain, no pool is taken
 * below its strong guarantee and nothing ping-pongs (the simulator's invariants), and gangs do run
 * whole.
 */
class GangSimulationTest {

    /** Reservations made over all seeds (printed at the end: the seeds exercise them). */
    static final AtomicInteger RESERVED = new AtomicInteger();

    @AfterAll
    static void reservationsWereMade() {
        assertTrue(RESERVED.get() > 0, "no seed made a gang reservation: the reserving seeds test nothing of them");
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 40);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void noGangEverRunsPartiallyOrOutsideItsRequiredDomain(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int blocks = 1 + random.nextInt(2);
        int racks = 2 + random.nextInt(2);
        int perRack = 2 + random.nextInt(3);
        List<Workload.NodeGroup> nodes = new ArrayList<>();
        List<String> nodeIds = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            for (int r = 0; r < racks; r++) {
                String group = "b" + b + "r" + r;
                nodes.add(new Workload.NodeGroup(group, perRack, new Resources(8, 32, 8, 256e9, 0), Set.of(),
                        NodeTopology.parse("block=b" + b + ",rack=r" + b + r)));
                for (int i = 1; i <= perRack; i++) {
                    nodeIds.add(group + "-" + i);
                }
            }
        }
        List<Workload.OperationGroup> operations = new ArrayList<>();
        GangTopology[] kinds = {GangTopology.NONE, new GangTopology("rack", true), new GangTopology("block", true),
                new GangTopology("rack", false)};
        int groups = 3 + random.nextInt(4);
        for (int i = 0; i < groups; i++) {
            String pool = "p" + random.nextInt(3);
            Duration at = Duration.ofSeconds(random.nextInt(120));
            Duration runs = Duration.ofSeconds(10 + random.nextInt(90));
            if (random.nextInt(3) == 0) {
                operations.add(new Workload.OperationGroup("one" + i, 1 + random.nextInt(3), at, pool, null, "u", 1 + random.nextInt(40),
                        new Resources(1, 2, 1, 16e9, 0), runs, 1, OperationType.VANILLA));
            } else {
                double gpus = random.nextBoolean() ? 8 : 4;
                operations.add(new Workload.OperationGroup("gang" + i, 1 + random.nextInt(3), at, pool, null, "u",
                        2 + random.nextInt(2 * perRack), new Resources(1, 4, gpus, 32e9, 0), runs, 1,
                        OperationType.VANILLA, kinds[random.nextInt(kinds.length)]));
            }
        }
        List<Workload.TimedEvent> events = new ArrayList<>();
        for (int k = random.nextInt(3); k > 0; k--) {
            String lost = nodeIds.get(random.nextInt(nodeIds.size()));
            int when = 20 + random.nextInt(200);
            events.add(new Workload.NodeLoss(Duration.ofSeconds(when), List.of(lost)));
            events.add(new Workload.NodeReturn(Duration.ofSeconds(when + 30 + random.nextInt(60)), List.of(lost)));
        }
        // every other seed: jobs held to 2 minutes, and gangs reserving after 20 s of starving for room
        boolean reserving = seed % 2 == 0;
        Duration limit = reserving ? Duration.ofMinutes(2) : null;
        List<PoolConfig> pools = List.of(PoolConfig.builder("p0").weight(1).timeLimits(limit, limit).build(),
                PoolConfig.builder("p1").weight(2).timeLimits(limit, limit).build(),
                PoolConfig.builder("p2").weight(1).timeLimits(limit, limit).build());
        StarvationSettings starvation = new StarvationSettings(Duration.ofSeconds(10), Duration.ofSeconds(20), 0.8,
                random.nextBoolean(), true, 1.0);
        PreemptionSettings preemption = PreemptionSettings.DEFAULT.withGangReservations(
                reserving ? new GangReservations(Duration.ofSeconds(20), 2) : GangReservations.OFF);
        PoolTreeConfig tree = new PoolTreeConfig("t", null, ResourceType.GPU, null, null, true, null, starvation, preemption,
                null, pools).withTopologyLevels(List.of("block", "rack"));
        Simulator simulator = new Simulator(new PoolsConfig("t", Map.of("t", tree)),
                new Workload(Duration.ofSeconds(1 + random.nextInt(2)), Duration.ofSeconds(1), nodes, operations, events),
                new ClusterSettings(Duration.ofSeconds(10), Duration.ofSeconds(20)).withGangStartTimeout(Duration.ofSeconds(5)),
                seed, null);

        int[] reserved = new int[1];
        simulator.cluster().gangListener(new GangListener() {
            @Override
            public void reserved(GangReservation reservation) {
                reserved[0]++;
            }
        });
        SimReport report = simulator.run(Duration.ofMinutes(8));
        RESERVED.addAndGet(reserved[0]);

        assertEquals(0, report.invariantViolations(), "seed " + seed + ": " + report.violations());
        int gangsThatRan = 0;
        for (Operation operation : simulator.cluster().registry().operations()) {
            if (operation.spec().gang() && operation.completedJobCount() + operation.runningJobCount() > 0) {
                gangsThatRan++;
            }
        }
        StringBuilder gangs = new StringBuilder();
        for (Operation operation : simulator.cluster().registry().operations()) {
            if (operation.spec().gang()) {
                gangs.append(operation.id()).append(' ').append(operation.spec().jobCount()).append(' ')
                        .append(operation.spec().topology().describe()).append(' ').append(operation.state()).append("; ");
            }
        }
        assertTrue(gangsThatRan > 0 || gangs.length() == 0, "seed " + seed + ": no gang ever ran: " + gangs
                + report.jobsStarted());
    }
}
