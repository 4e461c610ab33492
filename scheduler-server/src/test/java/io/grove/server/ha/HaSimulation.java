package io.grove.server.ha;

import io.grove.server.coord.CoordinationException;
import io.grove.server.coord.Epoch;
import io.grove.server.coord.Fencing;
import io.grove.server.coord.MemoryCoordination;
import io.grove.server.coord.MemoryEnsemble;
import io.grove.server.coord.ZkLayout;
import io.grove.server.state.JournalEvent;
import io.grove.server.state.ZkLogReader;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A seeded simulation of a high-availability group on the in-memory twin: schedulers (the real
 * {@link RoleMachine}, the real log format and reader), agents and clients, with kills, clean
 * stops, partitions (silent or reset), pauses longer than the session, lost replies and restarts
 * of the ensemble, and a role thread that stalls while the daemon's threads go on answering, on
 * simulated time. After every step it checks that never two schedulers may act
 * as the leader at once, that no two can write, that epochs only grow, that every acknowledged
 * operation is in what a new leader revives, and (as agents start jobs) that no job index runs
 * twice at once; at the end, that no retried submission was written twice. A violation fails with the seed, the step and the last things that happened.
 */
final class HaSimulation {

    static final Duration SESSION = Duration.ofSeconds(3);
    static final long TICK_NANOS = Fencing.confirmEvery(SESSION).toNanos();
    static final long HEARTBEAT_NANOS = millis(100);
    /** An agent leaves a scheduler that has not answered for this long. */
    static final long AGENT_GIVES_UP_NANOS = millis(1_500);
    /** A leader takes a node that has not been heard from for this long as lost, and its jobs as ended. */
    static final long NODE_LOST_NANOS = millis(10_000);

    /** What one run saw, for the test to check that the simulation did something. */
    record Stats(int steps, int acknowledged, long epochs, int jobsStarted, int faults) {
    }

    final long seed;
    final Random random;
    final boolean startsWrittenFirst;
    final ZkLayout layout = new ZkLayout("/grove-sim");
    long now;
    final MemoryEnsemble ensemble;
    final List<SimScheduler> schedulers = new ArrayList<>();
    final List<SimAgent> agents = new ArrayList<>();
    private final Map<String, SimAgent> agentsByName = new HashMap<>();
    private final Set<String> acknowledged = new LinkedHashSet<>();
    private final Map<String, SimAgent> runningOperations = new HashMap<>();
    private final Map<SimScheduler, Long> partitionedUntil = new HashMap<>();
    private final ArrayDeque<String> trace = new ArrayDeque<>();
    private long ensembleUpAt = -1;
    private long highestClaim;
    private long lastEpoch;
    private int step;
    private int submitted;
    private int jobsStarted;
    private int faults;

    HaSimulation(long seed, int schedulerCount, int agentCount, boolean startsWrittenFirst) {
        this.seed = seed;
        this.random = new Random(seed);
        this.startsWrittenFirst = startsWrittenFirst;
        this.ensemble = new MemoryEnsemble(() -> now, SESSION, layout);
        for (int i = 0; i < schedulerCount; i++) {
            schedulers.add(new SimScheduler("s" + (i + 1), this));
        }
        for (int i = 0; i < agentCount; i++) {
            SimAgent agent = new SimAgent("n" + (i + 1), this);
            agents.add(agent);
            agentsByName.put(agent.name, agent);
        }
        schedulers.forEach(SimScheduler::boot);
    }

    static long millis(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }

    static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3fs", nanos / 1e9);
    }

    static String operationOf(String jobId) {
        return jobId.substring(0, jobId.indexOf('#'));
    }

    SimAgent agent(String name) {
        return agentsByName.get(name);
    }

    SimScheduler randomScheduler() {
        return schedulers.get(random.nextInt(schedulers.size()));
    }

    void trace(String what) {
        trace.addLast(seconds(now) + " " + what);
        if (trace.size() > 80) {
            trace.removeFirst();
        }
    }

    private AssertionError violation(String what) {
        return new AssertionError("seed " + seed + ", step " + step + " (" + seconds(now) + "): " + what
                + "\nreplay: HaSimulationTest.replay(" + seed + "L)\nlast events:\n  " + String.join("\n  ", trace));
    }

    // ---------------------------------------------------------------- running

    /** Runs {@code steps} steps with faults, then heals everything and lets the group settle. */
    Stats run(int steps) {
        for (step = 0; step < steps; step++) {
            faults();
            clients();
            advance();
        }
        healEverything();
        for (int settle = 0; settle < 600; settle++, step++) {
            clients();
            advance();
        }
        checkEverythingAcknowledgedIsWritten();
        if (schedulers.stream().noneMatch(SimScheduler::answersAsLeader)) {
            throw violation("no scheduler leads 30 s after every fault healed");
        }
        return new Stats(step, acknowledged.size(), ensemble.epoch(), jobsStarted, faults);
    }

    private void advance() {
        now += millis(10 + random.nextInt(90));
        if (ensembleUpAt >= 0 && now - ensembleUpAt >= 0) {
            ensembleUpAt = -1;
            ensemble.start();
            trace("the ensemble is back");
        }
        partitionedUntil.entrySet().removeIf(cut -> {
            if (now - cut.getValue() >= 0) {
                cut.getKey().coordination.partition(false);
                trace(cut.getKey().name + ": partition healed");
                return true;
            }
            return false;
        });
        ensemble.advance();
        List<Runnable> turns = new ArrayList<>();
        schedulers.forEach(s -> turns.add(s::step));
        agents.forEach(a -> turns.add(() -> a.step(now)));
        java.util.Collections.shuffle(turns, random);
        for (Runnable turn : turns) {
            turn.run();
            check();
        }
    }

    private void clients() {
        if (random.nextInt(10) < 3) {
            SimScheduler to = randomScheduler();
            if (to.submit("op-" + (submitted + 1))) {
                submitted++;
            }
        }
    }

    private void faults() {
        int dice = random.nextInt(10_000);
        SimScheduler victim = randomScheduler();
        long session = SESSION.toNanos();
        if (dice < 20 && victim.alive) {
            faults++;
            victim.kill(millis(500 + random.nextInt(7_500)));
        } else if (dice < 40 && victim.alive) {
            faults++;
            victim.stopCleanly(millis(200 + random.nextInt(2_800)));
        } else if (dice < 70 && victim.alive && !partitionedUntil.containsKey(victim)) {
            faults++;
            long until = now + millis(200) + (long) (random.nextDouble() * 2 * session);
            victim.coordination.partition(true);
            partitionedUntil.put(victim, until);
            trace(victim.name + ": partitioned until " + seconds(until));
        } else if (dice < 90 && victim.running()) {
            faults++;
            victim.pause(now + millis(500) + (long) (random.nextDouble() * 3 * session));
        } else if (dice < 110 && victim.running()) {
            faults++;
            victim.stall(now + millis(200) + (long) (random.nextDouble() * 2 * session));
        } else if (dice < 190 && victim.alive) {
            victim.coordination.loseReplies(1);
        } else if (dice < 200 && ensemble.up()) {
            faults++;
            ensemble.stop();
            ensembleUpAt = now + millis(100 + random.nextInt(1_900));
            trace("the ensemble stops until " + seconds(ensembleUpAt));
        }
    }

    private void healEverything() {
        trace("every fault heals");
        if (!ensemble.up()) {
            ensemble.start();
            ensembleUpAt = -1;
        }
        partitionedUntil.keySet().forEach(s -> s.coordination.partition(false));
        partitionedUntil.clear();
    }

    // ---------------------------------------------------------------- what the model reports

    void claimed(SimScheduler by, Epoch epoch) {
        trace(by.name + ": claims epoch " + epoch.number());
        if (epoch.number() <= highestClaim) {
            throw violation(by.name + " claimed epoch " + epoch.number() + " after epoch " + highestClaim);
        }
        highestClaim = epoch.number();
    }

    void acknowledged(String operation, SimScheduler by) {
        acknowledged.add(operation);
        trace(by.name + ": acknowledges " + operation);
    }

    void revived(SimScheduler by, Epoch epoch, Collection<String> operations) {
        Set<String> have = new HashSet<>(operations);
        for (String operation : acknowledged) {
            if (!have.contains(operation)) {
                throw violation(by.name + " leads epoch " + epoch.number() + " without the acknowledged " + operation);
            }
        }
    }

    void jobStarting(String operation, String jobId, SimAgent on, SimScheduler by) {
        jobsStarted++;
        if (!by.answersAsLeader()) {
            throw violation(by.name + " started " + jobId + " without a running lease");
        }
        SimAgent already = runningOperations.get(operation);
        if (already != null) {
            throw violation("the job index of " + operation + " runs twice at once: on " + already.name + " and, as "
                    + jobId + ", on " + on.name);
        }
        runningOperations.put(operation, on);
        trace(by.name + ": starts " + jobId + " on " + on.name);
    }

    void jobStopped(String operation, SimAgent on) {
        if (runningOperations.get(operation) == on) {
            runningOperations.remove(operation);
        }
    }

    // ---------------------------------------------------------------- invariants

    private void check() {
        List<String> acting = new ArrayList<>();
        List<String> writers = new ArrayList<>();
        int currentVersion = ensemble.epochVersion();
        for (SimScheduler scheduler : schedulers) {
            if (scheduler.mayAct()) {
                acting.add(scheduler.name);
            }
            Epoch epoch = scheduler.writingEpoch();
            if (epoch != null && epoch.version() == currentVersion && epoch.number() == ensemble.epoch()) {
                writers.add(scheduler.name);
            }
        }
        if (acting.size() > 1) {
            throw violation("two schedulers may act as the leader at once: " + acting);
        }
        if (writers.size() > 1) {
            throw violation("two schedulers can write: " + writers);
        }
        long epoch = ensemble.epoch();
        if (epoch < lastEpoch) {
            throw violation("the epoch went back from " + lastEpoch + " to " + epoch);
        }
        lastEpoch = epoch;
    }

    private void checkEverythingAcknowledgedIsWritten() {
        MemoryCoordination observer = ensemble.observer();
        ZkLogReader reader = new ZkLogReader(observer, layout);
        try {
            reader.catchUp();
        } catch (CoordinationException | java.io.IOException e) {
            throw violation("the log cannot be read: " + e);
        }
        Set<String> written = new HashSet<>();
        for (JournalEvent event : reader.events()) {
            if (event instanceof JournalEvent.Aborted submitted && !written.add(submitted.id())) {
                throw violation(submitted.id() + " was written twice: a retry after an unknown outcome made it again");
            }
        }
        for (String operation : acknowledged) {
            if (!written.contains(operation)) {
                throw violation("the acknowledged " + operation + " is not in the log");
            }
        }
    }
}
