package io.grove.agent.image;

import io.grove.core.operation.ImageReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The images jobs wait for, on the agent's thread: each job's tag is resolved to a digest when the
 * job comes (jobs that come while a resolution of the same reference is under way share it); a
 * digest not in the cache is pulled once, as a task of the node's Resource Broker, however many
 * jobs wait for it; a reference that failed fails new jobs at once for a while instead of being
 * pulled again in a storm. The work itself (skopeo, umoci) runs on the image threads.
 */
public final class ImagePulls {

    /** Told when a job's image is ready or cannot be had; always on the agent's thread, never from {@link #need}. */
    public interface Waiter {
        void ready(ImageConfig image, long pullMs);

        void failed(String why);
    }

    /** The node's Resource Broker, as the pulls use it. */
    public interface Broker {
        /** Queues the pull of {@code digest} as a broker task; returns its id. */
        long submitPull(String digest);

        /** The pull's task is done: its resources go back. */
        void finished(long taskId);
    }

    private static final class Wait {
        final String jobId;
        final ImageReference ref;
        final Waiter waiter;
        String digest;

        Wait(String jobId, ImageReference ref, Waiter waiter) {
            this.jobId = jobId;
            this.ref = ref;
            this.waiter = waiter;
        }
    }

    private static final class Pull {
        final String digest;
        final ImageReference ref;
        final long bytes;
        long taskId;
        final List<Wait> waiting = new ArrayList<>();
        long startedMs = -1;

        Pull(String digest, ImageReference ref, long bytes) {
            this.digest = digest;
            this.ref = ref;
            this.bytes = bytes;
        }
    }

    private record Failure(String why, long untilMs) {
    }

    private final ImageStore store;
    private final Executor workers;
    private final Consumer<Runnable> onAgent;
    private final LongSupplier clock;
    private final long failureMemoryMs;
    private final Broker broker;
    private final ImageMeters meters;
    private final Map<String, List<Wait>> resolving = new HashMap<>();
    private final Map<String, Pull> pulls = new LinkedHashMap<>();
    private final Map<String, Failure> failures = new HashMap<>();
    private final Map<String, Wait> byJob = new HashMap<>();
    private final Map<String, Integer> inUse = new HashMap<>();

    /**
     * @param workers runs the blocking work (resolutions, pulls)
     * @param onAgent runs a task on the agent's thread
     * @param clock the agent's clock, milliseconds
     */
    public ImagePulls(ImageStore store, Executor workers, Consumer<Runnable> onAgent, LongSupplier clock,
            long failureMemoryMs, Broker broker, ImageMeters meters) {
        this.store = store;
        this.workers = workers;
        this.onAgent = onAgent;
        this.clock = clock;
        this.failureMemoryMs = failureMemoryMs;
        this.broker = broker;
        this.meters = meters;
    }

    /** A job needs {@code ref}: its waiter is told (later, on the agent's thread) when it is ready or why not. */
    public void need(String jobId, ImageReference ref, Waiter waiter) {
        Wait wait = new Wait(jobId, ref, waiter);
        Failure failure = failures.get(ref.toString());
        if (failure != null && failure.untilMs() > clock.getAsLong()) {
            onAgent.accept(() -> waiter.failed(failure.why() + " (a pull of this reference failed within the last "
                    + failureMemoryMs / 1000 + " s on this node; it is not tried again until then)"));
            return;
        }
        failures.remove(ref.toString());
        byJob.put(jobId, wait);
        if (ref.pinned()) {
            digestKnown(wait, ref.digest(), -1);
            return;
        }
        List<Wait> sharing = resolving.get(ref.toString());
        if (sharing != null) {
            sharing.add(wait);
            return;
        }
        List<Wait> waits = new ArrayList<>(List.of(wait));
        resolving.put(ref.toString(), waits);
        workers.execute(() -> {
            try {
                ImageStore.Resolved resolved = store.resolve(ref);
                onAgent.accept(() -> resolved(ref, resolved));
            } catch (PullException e) {
                onAgent.accept(() -> failedAll(ref, resolving.remove(ref.toString()), e.getMessage()));
            }
        });
    }

    private void resolved(ImageReference ref, ImageStore.Resolved resolved) {
        for (Wait wait : resolving.remove(ref.toString())) {
            if (byJob.get(wait.jobId) == wait) {
                digestKnown(wait, resolved.digest(), resolved.bytes());
            }
        }
    }

    private void digestKnown(Wait wait, String digest, long bytes) {
        wait.digest = digest;
        var cached = store.cached(digest);
        if (cached.isPresent()) {
            meters.hit();
            ready(wait, cached.get(), 0);
            return;
        }
        Pull pull = pulls.get(digest);
        if (pull == null) {
            meters.miss();
            pull = new Pull(digest, wait.ref, bytes);
            pull.waiting.add(wait);
            pulls.put(digest, pull);
            // the broker may allocate the task at once, so the pull is known before it is submitted
            pull.taskId = broker.submitPull(digest);
            return;
        }
        pull.waiting.add(wait);
    }

    /** The broker allocated the pull of {@code digest}: it starts. */
    public void allocated(String digest) {
        Pull pull = pulls.get(digest);
        if (pull == null || pull.startedMs >= 0) {
            return;
        }
        pull.startedMs = clock.getAsLong();
        workers.execute(() -> {
            try {
                ImageConfig image = store.pull(pull.ref, digest);
                onAgent.accept(() -> pulled(pull, image));
            } catch (PullException e) {
                onAgent.accept(() -> {
                    pulls.remove(digest);
                    broker.finished(pull.taskId);
                    meters.failed();
                    failedAll(pull.ref, pull.waiting, e.getMessage());
                });
            }
        });
    }

    private void pulled(Pull pull, ImageConfig image) {
        pulls.remove(pull.digest);
        broker.finished(pull.taskId);
        long ms = Math.max(0, clock.getAsLong() - pull.startedMs);
        meters.pulled(ms);
        for (Wait wait : pull.waiting) {
            if (byJob.get(wait.jobId) == wait) {
                ready(wait, image, ms);
            }
        }
        store.evict(inUse.keySet());
    }

    private void ready(Wait wait, ImageConfig image, long ms) {
        byJob.remove(wait.jobId);
        hold(image.digest());
        store.used(image.digest(), clock.getAsLong());
        onAgent.accept(() -> wait.waiter.ready(image, ms));
    }

    private void failedAll(ImageReference ref, List<Wait> waits, String why) {
        failures.put(ref.toString(), new Failure(why, clock.getAsLong() + failureMemoryMs));
        for (Wait wait : waits == null ? List.<Wait>of() : waits) {
            if (byJob.get(wait.jobId) == wait) {
                byJob.remove(wait.jobId);
                wait.waiter.failed(why);
            }
        }
    }

    /** The job stopped before its image was ready: it waits no more (a pull under way goes on, for the cache). */
    public void cancel(String jobId) {
        byJob.remove(jobId);
    }

    /** A job is given the image (it prepares or runs): the image is not removed from the cache. */
    private void hold(String digest) {
        inUse.merge(digest, 1, Integer::sum);
    }

    /** A job that held the image ended. */
    public void release(String digest) {
        inUse.computeIfPresent(digest, (d, n) -> n <= 1 ? null : n - 1);
    }

    /** What a job waiting for its image waits for, or {@code null} when it does not. */
    public String preparing(String jobId) {
        Wait wait = byJob.get(jobId);
        if (wait == null) {
            return null;
        }
        if (wait.digest == null) {
            return "resolving " + wait.ref;
        }
        Pull pull = pulls.get(wait.digest);
        if (pull == null) {
            return null;
        }
        if (pull.startedMs < 0) {
            return "waiting for the node's broker to pull " + wait.ref;
        }
        long done = store.pulledBytes(wait.digest) >> 20;
        return "pulling " + wait.ref + (pull.bytes > 0 ? " (" + Math.min(done, pull.bytes >> 20) + " of "
                + Math.max(1, (pull.bytes + (1 << 20) - 1) >> 20) + " MiB)" : " (" + done + " MiB so far)");
    }

    /** The digests jobs hold now. */
    public Set<String> inUse() {
        return Set.copyOf(inUse.keySet());
    }

    /** How many pulls are queued or under way. */
    public int pullsUnderWay() {
        return pulls.size();
    }
}
