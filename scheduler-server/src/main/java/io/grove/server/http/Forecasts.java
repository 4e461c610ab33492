package io.grove.server.http;

import io.grove.api.Explanation;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.forecast.Cadence;
import io.grove.core.forecast.ForecastSnapshot;
import io.grove.core.forecast.StartForecast;
import io.grove.core.operation.Operation;
import io.grove.http.DaemonThreads;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Predicted starts for the explain route: computed on a thread of their own from a snapshot the
 * scheduler's thread takes, bounded in time. One computation predicts every operation of the
 * snapshot, and every {@code explain} shares it (those asked while it runs wait for the same one):
 * it is kept until the trees' next fair-share updates, and at least {@link #KEPT} (or
 * {@link #KEPT_TIMES} as long as it took to compute, when longer) on a busy scheduler, answers that
 * say "unknown" and forecasts that ran out of time included. The outlook of every operation (the
 * START of lists) is made again after each update, once: lists asked while one computes share it.
 * A user waits on at most {@link #PER_USER} forecasts at once.
 */
final class Forecasts {

    /** How long one forecast may compute. */
    static final Duration BUDGET = Duration.ofSeconds(3);

    /** How long a forecast of every operation is kept even while updates go on (a busy scheduler updates every 0.2 s). */
    static final Duration KEPT = Duration.ofSeconds(5);

    /** A forecast is kept at least this many times as long as it took to compute: a slow one is not made on every poll. */
    static final int KEPT_TIMES = 10;

    /** How many explanations one user may have waiting for a forecast at once. */
    static final int PER_USER = 4;

    /** One thread, a short queue: forecasts that cannot be queued are refused rather than piled up. */
    private final ExecutorService executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(16), DaemonThreads.named("grove-forecast"));

    /**
     * The forecast of every operation of one snapshot: after which updates, when, of which
     * operations, and how long it took to compute (nanoseconds; set when done).
     */
    private record Shared(List<Object> updates, Instant at, Set<String> operations,
            CompletableFuture<Map<String, StartForecast.Prediction>> all, AtomicLong took) {

        /** Whether it is still kept at {@code now}, the trees having been updated since. */
        boolean keptAt(Instant now) {
            return now.isBefore(at.plus(keptFor(took.get())));
        }
    }

    /**
     * How long a forecast that took {@code tookNanos} to compute is kept once the trees were updated:
     * {@link #KEPT}, or {@link #KEPT_TIMES} as long as it took when that is longer.
     */
    static Duration keptFor(long tookNanos) {
        Duration kept = Duration.ofNanos(tookNanos * KEPT_TIMES);
        return kept.compareTo(KEPT) > 0 ? kept : KEPT;
    }

    /** How often the daemon's nodes heartbeat and its fair shares are updated. */
    private final Cadence cadence;

    Forecasts(Cadence cadence) {
        this.cadence = cadence;
    }

    private Shared shared;
    private final Map<String, Integer> waiting = new HashMap<>();
    /** How many forecasts of every operation were computed (tests: one for many explanations). */
    private final AtomicLong computed = new AtomicLong();

    /** What the scheduler's thread hands over: the shared forecast the operation's answer comes from, or none. */
    record Request(String operationId, String user, CompletableFuture<Map<String, StartForecast.Prediction>> all) {
    }

    /**
     * On the scheduler's thread: the shared forecast {@code operation}'s answer comes from, started
     * from a snapshot when the one in hand is older than the trees' updates (and {@link #KEPT}) or
     * does not know the operation.
     */
    synchronized Request prepare(ClusterView cluster, Operation operation, String user, Instant now) {
        if (operation.state().isFinished() || operation.pendingJobCount() == 0) {
            return new Request(operation.id(), user, null);
        }
        List<Object> updates = updates(cluster);
        Shared kept = shared;
        if (kept == null || !kept.operations().contains(operation.id())
                || !same(kept.updates(), updates) && !kept.keptAt(now)) {
            ForecastSnapshot snapshot = ForecastSnapshot.take(cluster, now, cadence);
            Set<String> ids = new HashSet<>();
            snapshot.operations().forEach(o -> ids.add(o.id()));
            AtomicLong took = new AtomicLong();
            kept = new Shared(updates, now, ids, compute(snapshot, took), took);
            shared = kept;
        }
        return new Request(operation.id(), user, kept.all());
    }

    private CompletableFuture<Map<String, StartForecast.Prediction>> compute(ForecastSnapshot snapshot, AtomicLong took) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                computed.incrementAndGet();
                long start = System.nanoTime();
                Map<String, StartForecast.Prediction> all = StartForecast.predictAll(snapshot, 1, BUDGET.toNanos(),
                        System::nanoTime);
                took.set(System.nanoTime() - start);
                return all;
            }, executor);
        } catch (RejectedExecutionException busy) {
            return CompletableFuture.completedFuture(null);
        }
    }

    private static List<Object> updates(ClusterView cluster) {
        List<Object> updates = new ArrayList<>();
        for (String tree : cluster.treeNames()) {
            updates.add(cluster.fairShare(tree));
        }
        return updates;
    }

    /** Off the scheduler's thread: the forecast of a request (none for an operation that waits for nothing). */
    CompletableFuture<Explanation.Forecast> forecast(Request request) {
        if (request.all() == null) {
            return CompletableFuture.completedFuture(null);
        }
        synchronized (this) {
            int now = waiting.getOrDefault(request.user(), 0);
            if (now >= PER_USER && !request.all().isDone()) {
                return CompletableFuture.completedFuture(new Explanation.Forecast(null, null, List.of(), "user "
                        + request.user() + " already waits for " + now + " forecasts; ask again when one has answered"));
            }
            waiting.put(request.user(), now + 1);
        }
        return request.all().handle((all, error) -> {
            synchronized (this) {
                waiting.computeIfPresent(request.user(), (user, n) -> n <= 1 ? null : n - 1);
            }
            StartForecast.Prediction prediction = all == null ? null : all.get(request.operationId());
            if (prediction == null) {
                return new Explanation.Forecast(null, null, List.of(),
                        "the scheduler is computing other forecasts; ask again in a few seconds");
            }
            return view(prediction);
        });
    }

    /** How many forecasts of every operation were computed. */
    long computed() {
        return computed.get();
    }

    /** An outlook of every waiting operation (done or computing), and after which updates it was taken. */
    private record CachedOutlook(List<Object> updates, CompletableFuture<StartForecast.Outlook> outlook) {
    }

    private CachedOutlook outlook;

    /**
     * On the scheduler's thread: the outlook of every waiting operation as of the trees' last
     * updates. One taken after the same updates is shared; so is one still computing (lists asked
     * meanwhile wait for it rather than pile up computations); else a snapshot is taken and computed.
     */
    synchronized CompletableFuture<StartForecast.Outlook> outlook(ClusterView cluster, Instant now) {
        List<Object> updates = updates(cluster);
        CachedOutlook kept = outlook;
        if (kept != null && (same(kept.updates(), updates) || !kept.outlook().isDone())) {
            return kept.outlook();
        }
        ForecastSnapshot snapshot = ForecastSnapshot.take(cluster, now, cadence);
        CompletableFuture<StartForecast.Outlook> made;
        try {
            made = CompletableFuture.supplyAsync(() -> StartForecast.outlook(snapshot, 1, BUDGET.toNanos(), System::nanoTime),
                    executor);
        } catch (RejectedExecutionException busy) {
            made = CompletableFuture.completedFuture(new StartForecast.Outlook(Map.of(), "busy"));
        }
        outlook = new CachedOutlook(updates, made);
        return made;
    }

    private static boolean same(List<Object> a, List<Object> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    static Explanation.Forecast view(StartForecast.Prediction prediction) {
        return new Explanation.Forecast(band(prediction.nextStart()), band(prediction.lastStart()),
                new ArrayList<>(prediction.assumptions()), prediction.unknown());
    }

    private static Explanation.Band band(StartForecast.Band band) {
        return band == null ? null : new Explanation.Band(text(band.earliest()), text(band.likely()), text(band.latest()));
    }

    private static String text(Instant at) {
        return at == null ? null : at.toString();
    }
}
