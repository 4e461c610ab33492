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
