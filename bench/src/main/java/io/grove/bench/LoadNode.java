package io.grove.bench;

import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One simulated node over a {@link RawNode}: its running jobs (completing one per heartbeat, or
 * none), heartbeating every period and at once when the scheduler asks.
 */
final class LoadNode {
    /** A node of 32 cpu and 128 GB, no GPU. */
    static final String CPU_LIMITS = "{\"user_slots\":32,\"cpu\":32,\"gpu\":0,\"memory\":1.28E11,\"network\":0}";
    /** A node of 8 GPUs, 64 cpu and 1 TB. */
    static final String GPU_LIMITS = "{\"user_slots\":64,\"cpu\":64,\"gpu\":8,\"memory\":1.0E12,\"network\":0}";
    final String id;
    final RawNode client;
    final String limits;
    private final boolean completes;
    private final Consumer<String[]> onStart;
    final Map<String, String> running = new LinkedHashMap<>();
    /** Jobs started since the last acknowledged heartbeat (protocol version 2 deltas). */
    List<String[]> started = new ArrayList<>();
    boolean fullNext;

    /** Whether a heartbeat is out, whether the scheduler asked for another meanwhile, and the next one planned. */
    private boolean inFlight;
    private boolean again;
    private ScheduledFuture<?> planned;
    private EventLoopGroup group;
    private long periodMs;
    private long warmup;
    private long end;
    private LoadStats stats;

    /**
     * @param completes whether one running job completes with each heartbeat (else they run on)
     * @param onStart told of each job the scheduler starts here: its id and its operation's
     */
    LoadNode(String id, RawNode client, String limits, boolean completes, Consumer<String[]> onStart) {
        this.id = id;
        this.client = client;
        this.limits = limits;
        this.completes = completes;
        this.onStart = onStart;
    }

    /** Starts heartbeating after {@code delayMs}; a {@code heartbeat_now} brings the next one forward. */
    void start(EventLoopGroup group, long periodMs, long warmup, long end, LoadStats stats, long delayMs) {
        this.group = group;
        this.periodMs = periodMs;
        this.warmup = warmup;
        this.end = end;
        this.stats = stats;
        client.onPush = this::pushed;
        plan(delayMs);
    }

    private synchronized void plan(long delayMs) {
        planned = group.schedule(this::beat, delayMs, TimeUnit.MILLISECONDS);
    }

    /** The scheduler asked for a heartbeat now: at once, or right after the one out. */
    private void pushed() {
        stats.pushed.incrementAndGet();
        synchronized (this) {
            if (inFlight) {
                again = true;
                return;
            }
            if (planned != null) {
                planned.cancel(false);
            }
        }
        beat();
    }

    void beat() {
        long now = System.nanoTime();
        if (now > end) {
            return;
        }
        List<String> finished = new ArrayList<>(1);
        String heartbeat;
        synchronized (this) {
            if (inFlight) {
                return;
            }
            inFlight = true;
            if (!running.isEmpty()) {
                String done = running.keySet().iterator().next();
                running.remove(done);
                finished.add(done);
            }
            if (fullNext) {
                List<String[]> jobs = new ArrayList<>(running.size());
                running.forEach((job, operation) -> jobs.add(new String[] {job, operation}));
                heartbeat = RawNode.heartbeat(id, limits, true, jobs, finished);
                fullNext = false;
            } else {
                heartbeat = RawNode.heartbeat(id, limits, false, started, finished);
            }
            started = new ArrayList<>();
        }
        client.send(heartbeat).orTimeout(60, TimeUnit.SECONDS).whenComplete((reply, error) -> {
            long rtt = System.nanoTime() - now;
            boolean soon;
            synchronized (this) {
                if (error != null || !reply.ok()) {
                    fullNext = true;
                    if (now > warmup) {
                        stats.missed.incrementAndGet();
                    }
                } else {
                    fullNext |= reply.resync();
                    if (now > warmup) {
                        stats.add(rtt);
                        if (rtt > TimeUnit.MILLISECONDS.toNanos(periodMs)) {
                            stats.missed.incrementAndGet();
                        }
                    }
                    for (String[] start : reply.started()) {
                        running.put(start[0], start[1]);
                        started.add(start);
                        stats.started.incrementAndGet();
                        onStart.accept(start);
                    }
                    reply.dropped().forEach(running::remove);
                }
                inFlight = false;
                soon = again;
                again = false;
            }
            long next = soon ? 0 : Math.max(0, periodMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - now));
            plan(next);
        });
    }
}
