package io.grove.server.http;

import io.grove.api.Explanation;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
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
 * it is kept until the trees' next fair-share updates, and at least {@link #KEPT} on a busy
 * scheduler, failures included. A user waits on at most {@link #PER_USER} forecasts at once.
 */
final class Forecasts {

    /** How long one forecast may compute. */
    static final Duration BUDGET = Duration.ofSeconds(3);

    /** How long a forecast of every operation is kept even while updates go on (a busy scheduler updates every 0.2 s). */
    static final Duration KEPT = Duration.ofSeconds(5);

    /** How many explanations one user may have waiting for a forecast at once. */
    static final int PER_USER = 4;

    /** One thread, a short queue: forecasts that cannot be queued are refused rather than piled up. */
    private final ExecutorService executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(16), DaemonThreads.named("grove-forecast"));

    /** The forecast of every operation of one snapshot: after which updates, when, of which operations. */
    private record Shared(List<Object> updates, Instant at, Set<String> operations,
            CompletableFuture<Map<String, StartForecast.Prediction>> all) {
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
                || !same(kept.updates(), updates) && !now.isBefore(kept.at().plus(KEPT))) {
            ForecastSnapshot snapshot = ForecastSnapshot.take(cluster, now);
            Set<String> ids = new HashSet<>();
            snapshot.operations().forEach(o -> ids.add(o.id()));
            kept = new Shared(updates, now, ids, compute(snapshot));
            shared = kept;
        }
        return new Request(operation.id(), user, kept.all());
    }

    private CompletableFuture<Map<String, StartForecast.Prediction>> compute(ForecastSnapshot snapshot) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                computed.incrementAndGet();
                return StartForecast.predictAll(snapshot, 1, BUDGET.toNanos(), System::nanoTime);
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

    /** An outlook of every waiting operation, when it was made, and after which updates. */
    private record CachedOutlook(List<Object> updates, Instant at, StartForecast.Outlook outlook) {
    }

    private CachedOutlook outlook;

    /** What the scheduler's thread hands over for an outlook: the cached one, or a snapshot. */
    record OutlookRequest(List<Object> updates, Instant at, StartForecast.Outlook cached, ForecastSnapshot snapshot) {
    }

    /** On the scheduler's thread: the cached outlook, or a snapshot to make one. */
    synchronized OutlookRequest prepareOutlook(ClusterView cluster, Instant now) {
        List<Object> updates = updates(cluster);
        CachedOutlook kept = outlook;
        if (kept != null && (same(kept.updates(), updates) || now.isBefore(kept.at().plus(KEPT)))) {
            return new OutlookRequest(updates, now, kept.outlook(), null);
        }
        return new OutlookRequest(updates, now, null, ForecastSnapshot.take(cluster, now));
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

    /** Off the scheduler's thread: the outlook of a request. */
    CompletableFuture<StartForecast.Outlook> outlook(OutlookRequest request) {
        if (request.cached() != null) {
            return CompletableFuture.completedFuture(request.cached());
        }
        try {
            return CompletableFuture.supplyAsync(() -> {
                StartForecast.Outlook made = StartForecast.outlook(request.snapshot(), 1, BUDGET.toNanos(), System::nanoTime);
                synchronized (this) {
                    outlook = new CachedOutlook(request.updates(), request.at(), made);
                }
                return made;
            }, executor);
        } catch (RejectedExecutionException busy) {
            return CompletableFuture.completedFuture(new StartForecast.Outlook(Map.of(), "busy"));
        }
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
