package io.grove.server.http;

import io.grove.api.Explanation;
import io.grove.core.cluster.Cluster;
import io.grove.core.forecast.ForecastSnapshot;
import io.grove.core.forecast.StartForecast;
import io.grove.core.operation.Operation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Predicted starts for the explain route: computed on a thread of their own from a snapshot the
 * scheduler's thread takes, bounded in time, and kept until the next fair-share update of the
 * operation's tree (the cache knows an update by its result).
 */
final class Forecasts {

    /** How long one forecast may compute. */
    static final Duration BUDGET = Duration.ofSeconds(3);

    /** Forecasts kept at most (the oldest go first). */
    static final int CACHED = 256;

    /** A forecast and the update it was made after. */
    private record Cached(Object update, Explanation.Forecast forecast) {
    }

    private final Map<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > CACHED;
        }
    };

    /** One thread, a short queue: forecasts that cannot be queued are refused rather than piled up. */
    private final ExecutorService executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(16), runnable -> {
                Thread thread = new Thread(runnable, "grove-forecast");
                thread.setDaemon(true);
                return thread;
            });

    /** What the scheduler's thread hands over: a cached forecast, or a snapshot to compute one from. */
    record Request(String operationId, Object update, Explanation.Forecast cached, ForecastSnapshot snapshot) {
    }

    /** On the scheduler's thread: the cached forecast of {@code operation}, or a snapshot to compute it. */
    synchronized Request prepare(Cluster cluster, Operation operation, Instant now) {
        if (operation.state().isFinished() || operation.pendingJobCount() == 0) {
            return new Request(operation.id(), null, null, null);
        }
        String tree = operation.poolByTree().keySet().iterator().next();
        Object update = cluster.fairShare(tree);
        Cached cached = cache.get(operation.id());
        if (cached != null && update != null && cached.update() == update) {
            return new Request(operation.id(), update, cached.forecast(), null);
        }
        return new Request(operation.id(), update, null, ForecastSnapshot.take(cluster, now));
    }

    /** An outlook of every waiting operation, when it was made, and after which updates. */
    private record CachedOutlook(List<Object> updates, Instant at, StartForecast.Outlook outlook) {
    }

    /** How long an outlook is kept even while updates go on (a busy scheduler updates every 0.2 s). */
    static final Duration OUTLOOK_KEPT = Duration.ofSeconds(5);

    private CachedOutlook outlook;

    /** What the scheduler's thread hands over for an outlook: the cached one, or a snapshot. */
    record OutlookRequest(List<Object> updates, Instant at, StartForecast.Outlook cached, ForecastSnapshot snapshot) {
    }

    /** On the scheduler's thread: the cached outlook, or a snapshot to make one. */
    synchronized OutlookRequest prepareOutlook(Cluster cluster, Instant now) {
        List<Object> updates = new ArrayList<>();
        for (String tree : cluster.treeNames()) {
            updates.add(cluster.fairShare(tree));
        }
        CachedOutlook kept = outlook;
        if (kept != null && (same(kept.updates(), updates) || now.isBefore(kept.at().plus(OUTLOOK_KEPT)))) {
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
        } catch (java.util.concurrent.RejectedExecutionException busy) {
            return CompletableFuture.completedFuture(new StartForecast.Outlook(Map.of(), "busy"));
        }
    }

    /** Off the scheduler's thread: the forecast of a request (none for an operation that waits for nothing). */
    CompletableFuture<Explanation.Forecast> forecast(Request request) {
        if (request.cached() != null || request.snapshot() == null) {
            return CompletableFuture.completedFuture(request.cached());
        }
        try {
            return CompletableFuture.supplyAsync(() -> {
                StartForecast.Prediction prediction = StartForecast.predict(request.snapshot(), request.operationId(),
                        request.operationId().hashCode(), BUDGET.toNanos(), System::nanoTime);
                Explanation.Forecast forecast = view(prediction);
                synchronized (this) {
                    if (request.update() != null) {
                        cache.put(request.operationId(), new Cached(request.update(), forecast));
                    }
                }
                return forecast;
            }, executor);
        } catch (java.util.concurrent.RejectedExecutionException busy) {
            return CompletableFuture.completedFuture(new Explanation.Forecast(null, null, List.of(),
                    "the scheduler is computing other forecasts; ask again in a few seconds"));
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
