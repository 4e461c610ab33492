package io.grove.server;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ComputedUpdate;
import io.grove.core.cluster.PreparedUpdate;
import io.grove.core.operation.Job;
import io.grove.http.DaemonThreads;
import io.grove.server.accounting.Ledger;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.metrics.SchedulerMetrics;
import io.grove.server.state.JournalEvent;
import io.grove.server.state.StateLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's cadence, on one timer thread: the fair-share update (every period, and at once when
 * new work arrives), node liveness every second, the integral volumes' saves, and the journal's
 * compaction. Each task's failure is logged and the next run goes on.
 */
final class DaemonTimers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DaemonTimers.class);

    private final DaemonSettings settings;
    private final Clock clock;
    private final SchedulerLoop loop;
    private final StateLog journal;
    private final SchedulerMetrics metrics;
    /** {@code null} with accounting off. */
    private final Ledger ledger;
    private final WorkArrival arrival;
    private final Compaction compaction;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            DaemonThreads.named("grove-timer"));
    /** Held by a fair-share update from preparing to publishing. */
    private final Object updating = new Object();

    DaemonTimers(DaemonSettings settings, Clock clock, SchedulerLoop loop, StateLog journal, SchedulerMetrics metrics,
            Ledger ledger, WorkArrival arrival, Compaction compaction) {
        this.settings = settings;
        this.clock = clock;
        this.loop = loop;
        this.journal = journal;
        this.metrics = metrics;
        this.ledger = ledger;
        this.arrival = arrival;
        this.compaction = compaction;
    }

    /** Starts every task; new work's update runs on the same timer thread. */
    void start() {
        arrival.bind(timer, guard("fair-share update", this::updateFairShare));
        long update = settings.fairShareUpdatePeriod().toMillis();
        timer.scheduleWithFixedDelay(guard("fair-share update", this::updateFairShare), 0, update, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(guard("node check", this::checkNodes), 1, 1, TimeUnit.SECONDS);
        long integral = settings.integralStateEvery().toMillis();
        timer.scheduleWithFixedDelay(guard("integral volumes", this::saveIntegralVolumes), integral, integral,
                TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(guard("compaction", compaction::compactIfNeeded), 1, 1, TimeUnit.SECONDS);
    }

    private static Runnable guard(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.error("{} failed", what, e);
            }
        };
    }

    /**
     * Prepares on the loop, computes here, publishes on the loop: heartbeats go on meanwhile. One
     * at a time: a caller waits for an update under way (each tree computes in its own kept
     * workspace).
     */
    void updateFairShare() {
        synchronized (updating) {
            List<PreparedUpdate> prepared = loop.call(cluster -> {
                List<PreparedUpdate> all = new ArrayList<>();
                for (String tree : cluster.treeNames()) {
                    all.add(cluster.prepareFairShare(tree, clock.now()));
                }
                return all;
            }).join();
            List<ComputedUpdate> computed = new ArrayList<>();
            long all = 0;
            for (PreparedUpdate update : prepared) {
                long started = System.nanoTime();
                computed.add(Cluster.computeFairShare(update));
                long took = System.nanoTime() - started;
                metrics.fairShareUpdated(took);
                all += took;
            }
            arrival.updated(all);
            loop.call(cluster -> {
                for (ComputedUpdate update : computed) {
                    cluster.publishFairShare(update);
                }
                arrival.nudge(cluster, clock.now());
                metrics.refresh(cluster, clock.now());
                if (ledger != null) {
                    ledger.meter(cluster, clock.now());
                }
                return null;
            }).join();
        }
    }

    /** Applies node liveness now: offline after the heartbeat timeout, jobs aborted after the registration timeout. */
    void checkNodes() {
        loop.call(cluster -> {
            for (Job lost : cluster.checkNodes(clock.now())) {
                LOG.info("job {} of {} aborted: node {} is lost", lost.id(), lost.operationId(), lost.nodeId());
            }
            arrival.nudgeAsked(cluster);
            return null;
        }).join();
    }

    private void saveIntegralVolumes() {
        loop.call(cluster -> {
            for (String tree : cluster.treeNames()) {
                journal.append(new JournalEvent.IntegralVolumes(tree, cluster.integralState(tree),
                        clock.now().toEpochMilli()));
            }
            return null;
        }).join();
    }

    /** Stops every task; one under way is interrupted. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
