package io.grove.server.ha;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node agent in the {@link HaSimulation}: it keeps one connection to a scheduler, heartbeats it,
 * runs the jobs it is told to start, reports them running and ended, and kills those the leader
 * does not know. A scheduler that answers {@code not_leader} is left at once; a silent one after
 * {@link HaSimulation#AGENT_GIVES_UP_NANOS}; a dead one at once (its connection is reset).
 */
final class SimAgent {

    /** A job running here: which operation's index, and when it ends by itself. */
    record Running(String operation, long endsAt) {
    }

    final String name;
    private final HaSimulation world;
    final Map<String, Running> running = new LinkedHashMap<>();
    /** Jobs that ended and are not reported yet: job id to operation. */
    final Map<String, String> ended = new LinkedHashMap<>();
    SimScheduler connectedTo;
    /** The connection's incarnation: a scheduler that restarted does not have it any more. */
    long connectedIncarnation;
    private long lastAnswer;
    private long nextHeartbeat;

    SimAgent(String name, HaSimulation world) {
        this.name = name;
        this.world = world;
    }

    void step(long now) {
        for (var it = running.entrySet().iterator(); it.hasNext();) {
            var job = it.next();
            if (job.getValue().endsAt() - now <= 0) {
                it.remove();
                ended.put(job.getKey(), job.getValue().operation());
                world.jobStopped(job.getValue().operation(), this);
            }
        }
        if (now - nextHeartbeat < 0) {
            return;
        }
        nextHeartbeat = now + HaSimulation.HEARTBEAT_NANOS;
        if (connectedTo != null && (!connectedTo.alive || connectedTo.incarnation != connectedIncarnation)) {
            world.trace(name + ": connection to " + connectedTo.name + " reset");
            connectedTo = null;
        }
        if (connectedTo == null) {
            SimScheduler tried = world.randomScheduler();
            if (tried.running() && tried.answersAsLeader()) {
                connectedTo = tried;
                connectedIncarnation = tried.incarnation;
                lastAnswer = now;
                world.trace(name + ": connected to " + tried.name + " with " + running.keySet());
                exchange(now);
            }
            return;
        }
        if (!connectedTo.running()) {
            if (now - lastAnswer > HaSimulation.AGENT_GIVES_UP_NANOS) {
                world.trace(name + ": " + connectedTo.name + " silent, leaving it");
                connectedTo = null;
            }
            return;
        }
        exchange(now);
    }

    /** One heartbeat and its answer. */
    private void exchange(long now) {
        SimScheduler.Answer answer = connectedTo.heartbeat(this, List.copyOf(running.keySet()), new LinkedHashMap<>(ended));
        if (answer == null) {
            world.trace(name + ": " + connectedTo.name + " is not the leader");
            connectedTo = null;
            return;
        }
        lastAnswer = now;
        answer.reported().forEach(ended::remove);
        for (String kill : answer.kill()) {
            Running job = running.remove(kill);
            if (job != null) {
                world.trace(name + ": kills " + kill + " (unknown to " + connectedTo.name + ")");
                world.jobStopped(job.operation(), this);
            }
        }
    }

    /** A start sent by {@code from}: refused when this agent's connection is not to it (the send fails). */
    boolean start(SimScheduler from, String jobId, String operation, long endsAt) {
        if (connectedTo != from || connectedIncarnation != from.incarnation) {
            return false;
        }
        world.jobStarting(operation, jobId, this, from);
        running.put(jobId, new Running(operation, endsAt));
        return true;
    }

    List<String> runningIds() {
        return new ArrayList<>(running.keySet());
    }
}
