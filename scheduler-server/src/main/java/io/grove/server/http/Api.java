package io.grove.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.api.ApiError;
import io.grove.api.ApiJson;
import io.grove.api.Health;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.OpenApi;
import io.grove.http.Routes;
import io.grove.server.Clock;
import io.grove.server.ConfigReloader;
import io.grove.server.accounting.Ledger;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.metrics.SchedulerMetrics;
import io.grove.server.net.NodeAddresses;
import io.grove.server.security.AuditLog;
import io.grove.server.state.StateLog;
import io.grove.server.state.WriteAhead;
import io.grove.core.forecast.Cadence;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The HTTP API (documented in {@code docs/api.md}) as a route table: {@code /healthz},
 * {@code /metrics}, and the resources under {@code /api/v1}, each declared in a file of its own
 * ({@link OperationRoutes}, {@link JobRoutes}, {@link PoolRoutes}, {@link NodeRoutes},
 * {@link ConfigRoutes}). Reads and changes run on the scheduler's thread; a change is answered
 * after its journal record is on disk.
 */
public final class Api implements Function<ApiRequest, CompletableFuture<ApiResponse>> {

    /** Threads for work that blocks (parsing a candidate pools file); idle ones end after a minute. */
    static final Executor BLOCKING = Routes.blockingExecutor("grove-api-blocking");

    private final Routes routes;

    public Api(SchedulerLoop loop, StateLog journal, WriteAhead writeAhead, Clock clock, ConfigReloader config, SchedulerMetrics metrics,
            AtomicLong operationNumbers, NodeAddresses addresses, AuditLog audit, String nodeToken,
            Supplier<Health> health, Ledger ledger, Runnable workArrived, EventHub events, Cadence cadence) {
        ApiResource.Parts parts = new ApiResource.Parts(loop, journal, writeAhead, clock, config, metrics, operationNumbers,
                new Views(addresses), audit, nodeToken, workArrived, cadence);
        Routes.Builder builder = Routes.builder(BLOCKING, request -> {
            String path = "/" + String.join("/", request.path());
            boolean api = request.path().size() >= 3 && request.path().get(0).equals("api") && request.path().get(1).equals("v1");
            return ApiException.notFound("no route " + request.method() + " " + path + (api ? "" : "; the API is under /api/v1"));
        })
                .get("/healthz", (request, params) -> Routes.done(health(health.get(), journal, ledger)))
                .doc(Routes.Doc.of("the daemon answers; its role in a group", Health.class).id("getHealth"))
                .get("/metrics", (request, params) -> Routes.done(ApiResponse.text(metrics.scrape())))
                .doc(Routes.Doc.untyped("Prometheus text").id("getMetrics"))
                .get("/api/v1/openapi.json", (request, params) -> Routes.done(ApiResponse.ok(openApi())))
                .doc(Routes.Doc.untyped("this document: the API in OpenAPI 3.1").id("getOpenApi"));
        for (ApiResource resource : List.of(new OperationRoutes(parts), new JobRoutes(parts), new PoolRoutes(parts),
                new NodeRoutes(parts), new ConfigRoutes(parts), new UiRoutes(parts), new AccountingRoutes(parts, ledger),
                new EventRoutes(parts, events))) {
            resource.addTo(builder);
        }
        this.routes = builder.build();
    }

    /** The paths that need no bearer token. */
    public static final Set<String> OPEN = Set.of("/healthz", "/metrics", "/api/v1/openapi.json",
            "/ui", "/ui/{file}");

    private volatile ObjectNode openApi;

    /** The API's OpenAPI document, made from the route table and the records at the first ask. */
    public ObjectNode openApi() {
        if (openApi == null) {
            openApi = OpenApi.document("Grove scheduler", "v1", routes.described(), ApiError.class,
                    OPEN, ApiJson.mapper());
        }
        return openApi;
    }

    /**
     * {@code /healthz}: 503 and {@code failing} with the cause while the daemon cannot write its
     * state; {@code degraded} (still 200: it schedules) while the accounting database refuses writes.
     */
    private static ApiResponse health(Health health, StateLog journal, Ledger ledger) {
        String failure = journal.needsSnapshot() ? "the journal was deleted or replaced; writing it afresh"
                : journal.writeFailure();
        if (failure == null) {
            String accounting = ledger == null ? null : ledger.problem();
            return ApiResponse.ok(accounting == null ? health : health.degraded(accounting));
        }
        return ApiResponse.json(503, health.failing("cannot write the state: " + failure));
    }

    @Override
    public CompletableFuture<ApiResponse> apply(ApiRequest request) {
        return routes.apply(request);
    }
}
