package io.grove.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.broker.BrokerResources;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NodeLedgerTest {

    private static final Resources NODE = new Resources(8, 8, 0, 16L << 30, 0);

    @Test
    void theReserveIsNeverOffered() {
        NodeLedger ledger = new NodeLedger(NODE, new BrokerResources(500, 1L << 30));
        Resources offered = ledger.heartbeatSent();
        assertEquals(7.5, offered.cpu(), 1e-9);
        assertEquals(15L << 30, (long) offered.memory());
        assertEquals(8, offered.userSlots());
    }

    @Test
    void whileAHeartbeatIsInFlightTheBrokerKeepsToItsDeclaredShare() {
        NodeLedger ledger = new NodeLedger(NODE, new BrokerResources(500, 1L << 30));
        ledger.heartbeatSent();
        assertEquals(new BrokerResources(500, 1L << 30), ledger.brokerCapacity());
        ledger.jobStarted(Resources.cpu(7.5));
        ledger.replyApplied();
        assertEquals(500, ledger.brokerCapacity().cpuMillis(), "jobs hold the rest");
        ledger.jobEnded(Resources.cpu(7.5));
        assertEquals(8000, ledger.brokerCapacity().cpuMillis(), "between heartbeats the broker may take free room");
        ledger.brokerHolds(new BrokerResources(3000, 0));
        assertEquals(5.0, ledger.heartbeatSent().cpu(), 1e-9, "and the next heartbeat offers less");
    }

    /** Random jobs, broker tasks and heartbeats: jobs + broker never exceed the node. */
    @Test
    void jobsAndBrokerNeverDoubleBook() {
        for (long seed = 1; seed <= 30; seed++) {
            Random random = new Random(seed);
            NodeLedger ledger = new NodeLedger(NODE, new BrokerResources(random.nextInt(2000), 1L << 30));
            List<Resources> jobs = new ArrayList<>();
            BrokerResources broker = BrokerResources.ZERO;
            Resources offered = ledger.heartbeatSent();
            Resources placed = Resources.ZERO;
            boolean inFlight = true;
            for (int step = 0; step < 2000; step++) {
                int op = random.nextInt(5);
                if (op == 0 && !inFlight) {
                    offered = ledger.heartbeatSent();
                    inFlight = true;
                    placed = jobs.stream().reduce(Resources.ZERO, Resources::plus);
                } else if (op == 1 && inFlight) {
                    // the scheduler places jobs within the offered limits, counting the jobs it knows
                    Resources job = new Resources(1, 0.5 * (1 + random.nextInt(4)), 0, 1L << 30, 0);
                    if (offered.dominates(placed.plus(job))) {
                        placed = placed.plus(job);
                        jobs.add(job);
                        ledger.jobStarted(job);
                    }
                    ledger.replyApplied();
                    inFlight = false;
                } else if (op == 2 && !jobs.isEmpty()) {
                    ledger.jobEnded(jobs.remove(random.nextInt(jobs.size())));
                } else if (op == 3) {
                    BrokerResources want = broker.plus(new BrokerResources(250L * random.nextInt(4), 0));
                    if (BrokerResources.ZERO.fitsWith(want, ledger.brokerCapacity())) {
                        broker = want;
                        ledger.brokerHolds(broker);
                    }
                } else if (op == 4) {
                    broker = broker.minus(new BrokerResources(250L * random.nextInt(4), 0));
                    ledger.brokerHolds(broker);
                }
                double jobCpu = jobs.stream().mapToDouble(Resources::cpu).sum();
                assertTrue(jobCpu + broker.cpu() <= NODE.cpu() + 1e-9,
                        "seed " + seed + " step " + step + ": jobs " + jobCpu + " + broker " + broker.cpu());
            }
        }
    }
}
