package io.grove.server.ha;

import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.server.coord.CoordinationException;
import io.grove.server.coord.Epoch;
import io.grove.server.coord.Fencing;
import io.grove.server.coord.MemoryCoordination;
import io.grove.server.state.JournalEvent;
import io.grove.server.state.ZkLogReader;
import io.grove.server.state.ZkStateLog;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scheduler in the {@link HaSimulation}: the real {@link RoleMachine} and the real
 * {@link RoleEffects} (the code {@link HaScheduler} runs) against the in-memory twin, behind a port
 * to a model of the leading daemon — what it writes (submissions, job starts and ends, through the real log format and {@link ZkLogReader}),
 * whom it answers, which jobs it starts. Events from the coordination queue up and are taken a few
 * at a time, so that a scheduler may act before it has heard what happened.
 */
final class SimScheduler {

    /** What a heartbeat is answered: the ended jobs taken, the running ones to kill. */
    record Answer(List<String> reported, List<String> kill) {
    }

    /** An operation of one job index, as the leader knows it. */
    static final class Op {
        String runningJob;
        SimAgent on;
        int attempts;
        boolean done;
    }

    final String name;
    private final HaSimulation world;
    int incarnation;
    boolean alive;
    long pausedUntil;
    /** The role's thread is stuck (in a slow request) until then; the daemon's threads still answer. */
    long stalledUntil;
    long restartAt;
    private long nextTick;
    MemoryCoordination coordination;
    RoleMachine machine;
    private RoleEffects effects;
    private final ArrayDeque<RoleMachine.Event> inbox = new ArrayDeque<>();
    /** The leading daemon's state, or {@code null}. */
    private Map<String, Op> ops;
    private Epoch epoch;
    private long batchId;
    private Map<SimAgent, Long> heard;
    /** A write's outcome is unknown: nothing more is written until the role has stepped down. */
    private boolean uncertain;
    /** Job starts sent and not written yet (only when starts are not written first). */
    private final List<JournalEvent> unwritten = new ArrayList<>();

    SimScheduler(String name, HaSimulation world) {
        this.name = name;
        this.world = world;
    }

    // ---------------------------------------------------------------- life

    void boot() {
        incarnation++;
        long now = world.now;
        MemoryCoordination client = world.ensemble.client(name + "/" + incarnation);
        coordination = client;
        machine = new RoleMachine(HaSimulation.SESSION);
        effects = new RoleEffects(machine, client, world.layout, new ModelPort());
        inbox.clear();
        unwritten.clear();
        leaveLeading();
        nextTick = now + HaSimulation.TICK_NANOS;
        try {
            client.start(signal -> inbox.add(new RoleMachine.Signalled(signal)));
            alive = true;
            world.trace(name + ": started (incarnation " + incarnation + ")");
        } catch (CoordinationException e) {
            client.close();
            restartAt = now + HaSimulation.millis(500);
        }
    }

    void kill(long downFor) {
        world.trace(name + ": killed");
        alive = false;
        pausedUntil = 0;
        coordination.crash();
        leaveLeading();
        restartAt = world.now + downFor;
    }

    void stopCleanly(long downFor) {
        world.trace(name + ": stopped cleanly");
        handle(new RoleMachine.Close());
        coordination.close();
        alive = false;
        restartAt = world.now + downFor;
    }

    void pause(long until) {
        world.trace(name + ": paused until " + HaSimulation.seconds(until));
        pausedUntil = until;
        coordination.pause(true);
    }

    void stall(long until) {
        world.trace(name + ": the role's thread stalls until " + HaSimulation.seconds(until));
        stalledUntil = until;
    }

    boolean running() {
        return alive && world.now - pausedUntil >= 0;
    }

    /** Whether it may act as the leader by its own lease, paused or not (what the invariant checks). */
    boolean mayAct() {
        return alive && machine.mayAct(world.now, coordination.interruptions());
    }

    /** What {@link HaScheduler#isLeader} answers (the same code): the lease runs and the connection is up. */
    boolean answersAsLeader() {
        return alive && effects.isLeader();
    }

    Epoch writingEpoch() {
        return alive ? machine.epoch() : null;
    }

    void step() {
        long now = world.now;
        if (!alive) {
            if (now - restartAt >= 0) {
                boot();
            }
            return;
        }
        if (pausedUntil != 0 && now - pausedUntil >= 0) {
            pausedUntil = 0;
            coordination.pause(false);
            world.trace(name + ": resumed");
        }
        if (!running()) {
            return;
        }
        flushUnwritten();
        if (now - stalledUntil >= 0) {
            for (int taken = world.random.nextInt(inbox.size() + 1); taken > 0; taken--) {
                handle(inbox.poll());
            }
            if (now - nextTick >= 0) {
                nextTick = now + HaSimulation.TICK_NANOS;
                handle(new RoleMachine.Tick());
            }
        }
        if (ops != null && answersAsLeader()) {
            loseSilentAgents();
            if (world.random.nextInt(3) == 0) {
                scheduleOne();
            }
        }
    }

    // ---------------------------------------------------------------- the role

    private void handle(RoleMachine.Event event) {
        effects.handle(event);
    }

    /** The model's side of the role's effects; the order of claim, read, record and lead is {@link RoleEffects}'. */
    private final class ModelPort implements RolePort {

        @Override
        public long nanos() {
            return world.now;
        }

        @Override
        public LeaderRecord start(Epoch claimed) throws Exception {
            ZkLogReader reader = new ZkLogReader(coordination, world.layout);
            reader.catchUp();
            Map<String, Op> revived = revive(reader.events());
            world.revived(SimScheduler.this, claimed, revived.keySet());
            ops = revived;
            epoch = claimed;
            batchId = Fencing.firstBatchId(claimed);
            heard = new HashMap<>();
            for (SimAgent agent : world.agents) {
                heard.put(agent, world.now);
            }
            world.trace(name + ": leads at epoch " + claimed.number() + " with " + revived.size() + " operations");
            return new LeaderRecord(claimed.number(), name, name);
        }

        @Override
        public void recovered(LeaderRecord record) {
        }

        @Override
        public void stepDown(String why) {
            world.trace(name + ": steps down: " + why);
            leaveLeading();
        }

        @Override
        public void resign() {
            leaveLeading();
        }

        @Override
        public void post(RoleMachine.Event event) {
            inbox.add(event);
        }

        @Override
        public void confirmAside(Runnable confirmation) {
            // the answer comes back later, through the inbox, as it does from the daemon's confirming thread
            confirmation.run();
        }

        @Override
        public void claimed(Epoch claimed) {
            world.claimed(SimScheduler.this, claimed);
        }
    }

    private void leaveLeading() {
        uncertain = false;
        ops = null;
        epoch = null;
        heard = null;
    }

    private Map<String, Op> revive(List<JournalEvent> events) {
        Map<String, Op> revived = new LinkedHashMap<>();
        for (JournalEvent event : events) {
            if (event instanceof JournalEvent.Aborted submitted) {
                revived.put(submitted.id(), new Op());
            } else if (event instanceof JournalEvent.JobStarted started) {
                Op op = revived.get(started.operationId());
                op.runningJob = started.jobId();
                op.on = world.agent(started.nodeId());
                op.attempts = Math.max(op.attempts, started.attempt());
            } else if (event instanceof JournalEvent.JobEnded ended) {
                Op op = revived.get(HaSimulation.operationOf(ended.jobId()));
                if (ended.state() == JobState.COMPLETED) {
                    op.done = true;
                }
                if (ended.jobId().equals(op.runningJob)) {
                    op.runningJob = null;
                    op.on = null;
                }
            }
        }
        return revived;
    }

    // ---------------------------------------------------------------- the leading daemon

    /** Writes events as one batch under the epoch; a refusal is told to the role as the log tells the daemon. */
    private boolean write(List<JournalEvent> events) {
        if (uncertain) {
            return false;
        }
        try {
            ZkStateLog.writeEvents(coordination, world.layout, epoch, events, ++batchId);
            return true;
        } catch (CoordinationException e) {
            if (e.kind() == CoordinationException.Kind.FENCED) {
                inbox.add(new RoleMachine.Fenced(epoch));
            } else if (e.kind() == CoordinationException.Kind.OUTCOME_UNKNOWN) {
                uncertain = true;
                inbox.add(new RoleMachine.Uncertain(epoch));
            }
            return false;
        }
    }

    /** A client's submission (retried with the same id after an unknown outcome): acknowledged once durable. */
    boolean submit(String id) {
        if (!running() || ops == null || !answersAsLeader()) {
            return false;
        }
        if (ops.containsKey(id)) {
            // a retry of a submission whose outcome was unknown and that was written: the same
            // operation, as an Idempotency-Key gives it
            world.acknowledged(id, this);
            return true;
        }
        if (!write(List.of(new JournalEvent.Aborted(id, world.now, "submit")))) {
            return false;
        }
        ops.put(id, new Op());
        world.acknowledged(id, this);
        return true;
    }

    private void scheduleOne() {
        List<SimAgent> connected = new ArrayList<>();
        for (SimAgent agent : world.agents) {
            if (agent.connectedTo == this && agent.connectedIncarnation == incarnation) {
                connected.add(agent);
            }
        }
        if (connected.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Op> entry : ops.entrySet()) {
            Op op = entry.getValue();
            if (op.done || op.runningJob != null) {
                continue;
            }
            SimAgent agent = connected.get(world.random.nextInt(connected.size()));
            int attempt = op.attempts + 1;
            String jobId = entry.getKey() + "#" + attempt;
            JournalEvent started = new JournalEvent.JobStarted(jobId, entry.getKey(), "main", 0, attempt, agent.name,
                    "physical", world.now, null, 0);
            if (world.startsWrittenFirst) {
                if (!write(List.of(started))) {
                    return;
                }
            } else {
                unwritten.add(started);
            }
            op.attempts = attempt;
            op.runningJob = jobId;
            op.on = agent;
            if (answersAsLeader()) {
                agent.start(this, jobId, entry.getKey(), world.now + HaSimulation.millis(200 + world.random.nextInt(3_000)));
            }
            return;
        }
    }

    /** Job starts sent before they were written: written with the next batch, or lost with the process. */
    private void flushUnwritten() {
        if (!unwritten.isEmpty() && ops != null) {
            List<JournalEvent> batch = List.copyOf(unwritten);
            unwritten.clear();
            write(batch);
        }
    }

    /** A node's heartbeat; {@code null} is {@code not_leader}. */
    Answer heartbeat(SimAgent agent, List<String> runningJobs, Map<String, String> ended) {
        if (!running() || ops == null || !answersAsLeader()) {
            return null;
        }
        heard.put(agent, world.now);
        List<String> reported = new ArrayList<>();
        for (Map.Entry<String, String> job : ended.entrySet()) {
            Op op = ops.get(job.getValue());
            if (op != null && job.getKey().equals(op.runningJob)) {
                if (!write(List.of(new JournalEvent.JobEnded(job.getKey(), JobState.COMPLETED, null, null, world.now)))) {
                    continue;
                }
                op.done = true;
                op.runningJob = null;
                op.on = null;
            }
            reported.add(job.getKey());
        }
        List<String> kill = new ArrayList<>();
        for (String jobId : runningJobs) {
            Op op = ops.get(HaSimulation.operationOf(jobId));
            if (op == null || !jobId.equals(op.runningJob) || op.on != agent) {
                kill.add(jobId);
            }
        }
        for (Op op : ops.values()) {
            if (op.on == agent && op.runningJob != null && !runningJobs.contains(op.runningJob)
                    && !ended.containsKey(op.runningJob)) {
                abort(op, JobEndReason.ABORTED_BY_NODE);
            }
        }
        return new Answer(reported, kill);
    }

    private void loseSilentAgents() {
        for (Op op : ops.values()) {
            if (op.on != null && op.runningJob != null && world.now - heard.get(op.on) > HaSimulation.NODE_LOST_NANOS) {
                abort(op, JobEndReason.NODE_OFFLINE);
            }
        }
    }

    private void abort(Op op, JobEndReason reason) {
        if (write(List.of(new JournalEvent.JobEnded(op.runningJob, JobState.ABORTED, reason, null, world.now)))) {
            op.runningJob = null;
            op.on = null;
        }
    }
}
