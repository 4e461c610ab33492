package io.grove.server.http;

import io.grove.api.ApiJson;
import io.grove.api.ErrorDetails;
import io.grove.api.Explanation;
import io.grove.api.OperationDetails;
import io.grove.api.OperationSpecBody;
import io.grove.api.OperationSummary;
import io.grove.api.OperationUpdate;
import io.grove.api.Quantities;
import io.grove.config.LoadResult;
import io.grove.config.spec.OperationSpecLoader;
import io.grove.config.spec.ResourcesParser;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.SubmitFit;
import io.grove.core.forecast.StartForecast;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationState;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.AccessControl;
import io.grove.core.pool.PartialResources;
import io.grove.core.resource.Resources;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Routes;
import io.grove.protocol.Checks;
import io.grove.server.state.JournalEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Submitting, listing, reading, updating and aborting operations. */
final class OperationRoutes extends ApiResource {

    OperationRoutes(Parts parts) {
        super(parts);
        parts.metrics().watchForecasts(forecasts, Forecasts::computed);
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.post("/api/v1/operations", (request, params) -> submit(request))
                .doc(Routes.Doc.of("submit an operation", OperationSummary.class).id("submitOperation").errors(429, 409)
                        .taking(OperationSpecBody.class).created())
                .get("/api/v1/operations", (request, params) -> listOperations(request))
                .doc(Routes.Doc.listOf("operations in submission order, a page at a time", OperationSummary.class)
                        .id("listOperations").pagedByCursor().query(
                                Routes.Param.oneOf("state", "only operations in this state", STATES.toArray(new String[0])),
                                Params.POOL, Params.USER, Params.TREE, Params.LIMIT, Params.CURSOR,
                                Routes.Param.oneOf("forecast", "true: each pending one's predicted start too", "true", "false")))
                .get("/api/v1/operations/{id}",
                        (request, params) -> read(request, cluster -> {
                            Operation operation = operation(cluster, params.get("id"));
                            return views.operation(operation, cluster, mayReadOutput(request, cluster, operation));
                        }))
                .doc(Routes.Doc.of("an operation", OperationDetails.class).id("getOperation"))
                .patch("/api/v1/operations/{id}", (request, params) -> update(request, params.get("id")))
                .doc(Routes.Doc.of("change its weight, limits or pool", OperationDetails.class).id("updateOperation").errors(409)
                        .taking(OperationUpdate.class))
                .post("/api/v1/operations/{id}/abort", (request, params) -> abort(request, params.get("id")))
                .doc(Routes.Doc.of("abort it", OperationSummary.class).id("abortOperation").errors(409))
                .get("/api/v1/operations/{id}/explain", (request, params) -> explain(request, params.get("id")))
                .doc(Routes.Doc.of("why it waits, and when it should start", Explanation.class).id("explainOperation"));
    }

    private final Forecasts forecasts = new Forecasts(cadence);

    /** What the scheduler's thread takes for an explanation: the checks, and the forecast's cached value or snapshot. */
    private record Taken(Explanation explanation, Forecasts.Request forecast) {
    }

    /** The checks from the scheduler's thread; the forecast from its own thread (or the cache), within seconds. */
    private CompletableFuture<ApiResponse> explain(ApiRequest request, String id) {
        return loop.read(cluster -> {
            present(request);
            Operation target = operation(cluster, id);
            return new Taken(Explanations.of(cluster, target), forecasts.prepare(cluster, target, request.user() == null ? "" : request.user(),
                    clock.now()));
        }).thenCompose(taken -> forecasts.forecast(taken.forecast())
                .thenApply(forecast -> ApiResponse.ok(taken.explanation().withForecast(forecast))));
    }

    /**
     * Written ahead: the submission is checked and its operation held on the scheduler's thread,
     * it runs once its record is durable, and it goes without a trace (503) when the record cannot
     * be written. With an {@code Idempotency-Key}, a retry of a submission that was made answers
     * with its operation instead of making another.
     */
    private CompletableFuture<ApiResponse> submit(ApiRequest request) {
        String user = request.requireUser();
        String key = idempotencyKey(request);
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(request.body(), "the spec");
        if (!loaded.ok()) {
            throw new ApiException(400, "INVALID_SPEC", loaded.problems().size() + " problem(s) in the spec:\n"
                    + loaded.describe(), new ErrorDetails.Problems(problems(loaded.problems())));
        }
        OperationSpec spec = loaded.value();
        AccessControl access = config.current().access();
        return written(loop.call(cluster -> {
            Operation earlier = cluster.registry().bySubmissionKey(user, key);
            if (earlier != null) {
                return CompletableFuture.completedFuture(earlier(request, cluster, earlier, spec));
            }
            String id = "op-" + (operationNumbers.get() + 1);
            Operation operation;
            try {
                for (Map.Entry<String, List<String>> placed : cluster.registry().placementPaths(spec, user).entrySet()) {
                    AccessControl.Decision decision =
                            access.maySubmit(placed.getKey(), placed.getValue(), identity(request));
                    if (!decision.allowed()) {
                        throw forbidden(request, "submit", placed.getKey() + "/" + placed.getValue().get(0),
                                "user " + user + " may not submit to pool \"" + placed.getValue().get(0) + "\" in tree \""
                                        + placed.getKey() + "\": " + decision.rule());
                    }
                }
                cluster.checkGang(spec);
                SubmitFit.check(cluster, spec);
                DependencyChecks.check(cluster, spec, user,
                        other -> mayAdminister(identity(request), cluster.registry().pathsToRoot(other)));
                operation = cluster.registry().submitHeld(id, spec, user, clock.now(), key);
            } catch (SubmitException e) {
                audit(request, "submit", String.valueOf(spec.pool()), "refused", e.getMessage());
                throw refusal(e);
            }
            operationNumbers.incrementAndGet();
            return writeAhead.write(new JournalEvent.Submitted(id, spec, user, operation.submitTime().toEpochMilli(), key),
                    done -> {
                        done.registry().release(id);
                        workArrived.run();
                        audit(request, "submit", id, "allowed", operation.poolByTree().toString());
                        return ApiResponse.json(201, views.operationSummary(operation, done));
                    },
                    failed -> {
                        failed.registry().withdraw(id);
                        audit(request, "submit", id, "refused", "503: its record could not be written");
                    });
        }).thenCompose(future -> future));
    }

    /** The operation a retried submission made: its summary again, if the spec is the same. */
    private ApiResponse earlier(ApiRequest request, ClusterView cluster, Operation earlier,
            OperationSpec spec) {
        if (!earlier.spec().equals(spec)) {
            throw new ApiException(409, "IDEMPOTENCY_KEY_REUSED", "the Idempotency-Key '" + request.idempotencyKey()
                    + "' was given to " + earlier.id() + " with another spec; use a new key for a new submission",
                    new ErrorDetails.Operation(earlier.id()));
        }
        if (earlier.held()) {
            throw new ApiException(409, "IN_PROGRESS", "the submission with this Idempotency-Key is being written; "
                    + "ask again shortly", new ErrorDetails.Operation(earlier.id()));
        }
        return ApiResponse.json(200, views.operationSummary(earlier, cluster));
    }

    /** The {@code Idempotency-Key} header: up to 128 printable characters, or {@code null}. */
    private static String idempotencyKey(ApiRequest request) {
        String key = request.idempotencyKey();
        if (key != null && !key.matches("[\\x21-\\x7e]{1,128}")) {
            throw new ApiException(400, "BAD_PARAMETER", "the Idempotency-Key header must be 1 to 128 printable "
                    + "characters without spaces");
        }
        return key;
    }

    /** A page of operations in submission order, those after the cursor (an operation's id) that match. */
    private CompletableFuture<ApiResponse> listOperations(ApiRequest request) {
        if (!"true".equals(request.query().get("forecast"))) {
            return listOperations(request, null);
        }
        // ?forecast=true: the likely start of each one's next waiting job, from one outlook of all
        return loop.read(cluster -> forecasts.outlook(cluster, clock.now()))
                .thenCompose(outlook -> outlook)
                .thenCompose(outlook -> listOperations(request, outlook));
    }

    /** What {@code ?state=} takes. */
    private static final List<String> STATES = Arrays.stream(OperationState.values()).map(OperationState::key).toList();

    private CompletableFuture<ApiResponse> listOperations(ApiRequest request,
            StartForecast.Outlook outlook) {
        String state = Pages.oneOf(request, "state", STATES);
        String pool = request.query().get("pool");
        String user = request.query().get("user");
        String tree = request.query().get("tree");
        String cursor = request.query().get("cursor");
        int limit = Pages.limit(request);
        return loop.read(cluster -> {
            present(request);
            List<Operation> after;
            try {
                after = cluster.registry().operationsAfter(cursor);
            } catch (IllegalArgumentException e) {
                throw Pages.badCursor(cursor, "names no operation");
            }
            List<OperationSummary> list = new ArrayList<>();
            String last = null;
            for (Operation operation : after) {
                if (operation.held()
                        || state != null && !state.equalsIgnoreCase(operation.state().name())
                        || user != null && !user.equals(operation.user())
                        || tree != null && !operation.poolByTree().containsKey(tree)
                        || pool != null && !operation.poolByTree().containsValue(pool)) {
                    continue;
                }
                if (list.size() == limit) {
                    return Pages.page(list, last);
                }
                OperationSummary summary = views.operationSummary(operation, cluster);
                StartForecast.Band next = outlook == null ? null
                        : outlook.nextStarts().get(operation.id());
                list.add(next == null || next.likely() == null ? summary
                        : summary.withExpectedStart(next.likely().toString()));
                last = operation.id();
            }
            return Pages.page(list, null);
        });
    }

    /** Written ahead: checked on the scheduler's thread, applied once its record is durable (503 if it cannot be). */
    private CompletableFuture<ApiResponse> abort(ApiRequest request, String id) {
        String user = request.requireUser();
        String message = "aborted by " + user;
        return written(loop.call(cluster -> {
            Operation target = mayChange(request, cluster, operation(cluster, id), "abort");
            try {
                cluster.registry().checkAbort(id);
            } catch (SubmitException e) {
                throw refusal(e);
            }
            return writeAhead.write(new JournalEvent.Aborted(id, clock.now().toEpochMilli(), message),
                    done -> {
                        if (!target.state().isFinished()) {
                            done.abort(id, clock.now(), message);
                        }
                        audit(request, "abort", id, "allowed", null);
                        return ApiResponse.ok(views.operationSummary(target, done));
                    },
                    failed -> audit(request, "abort", id, "refused", "503: its record could not be written"));
        }).thenCompose(future -> future));
    }

    private CompletableFuture<ApiResponse> update(ApiRequest request, String id) {
        request.requireUser();
        OperationUpdate body;
        try {
            body = ApiJson.readStrict(request.body().isBlank() ? "{}" : request.body(), OperationUpdate.class);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "INVALID_SPEC", "the body is not an update: " + e.getMessage()
                    + "; an update may set weight, pool (with tree) and resource_limits");
        }
        Double weight = body.weight();
        String pool = body.pool();
        String tree = body.tree();
        Resources limits = body.resourceLimits() == null ? null : limits(body.resourceLimits());
        return written(loop.call(cluster -> {
            Operation target = mayChange(request, cluster, operation(cluster, id), "update");
            if (tree != null && !target.poolByTree().containsKey(tree)) {
                audit(request, "update", id, "refused", "400: no tree " + tree);
                throw new ApiException(400, "UNKNOWN_TREE", "operation " + id + " does not run in tree '"
                        + Checks.printable(tree, 64) + "' (it runs in " + target.poolByTree().keySet() + ")",
                        new ErrorDetails.Tree(Checks.printable(tree, 64)));
            }
            if (pool != null) {
                String inTree = tree != null ? tree : target.poolByTree().keySet().iterator().next();
                if (cluster.registry().pools(inTree) != null && cluster.registry().pools(inTree).contains(pool)) {
                    AccessControl.Decision decision = config.current().access().maySubmit(inTree,
                            cluster.registry().pools(inTree).pathToRoot(pool), identity(request));
                    if (!decision.allowed()) {
                        throw forbidden(request, "update", id, "user " + request.user() + " may not move " + id
                                + " to pool \"" + pool + "\": " + decision.rule());
                    }
                }
            }
            try {
                cluster.registry().checkUpdate(id, weight);
            } catch (SubmitException e) {
                audit(request, "update", id, "refused", e.getMessage());
                throw refusal(e);
            }
            // written ahead: applied once its record is durable, audited with its outcome
            return writeAhead.write(new JournalEvent.Updated(id, weight, limits, tree, pool, clock.now().toEpochMilli()),
                    done -> {
                        try {
                            done.updateOperation(id, weight, limits, tree, pool);
                        } catch (SubmitException e) {
                            audit(request, "update", id, "refused", e.getMessage());
                            throw refusal(e);
                        }
                        audit(request, "update", id, "allowed", request.body().strip());
                        OperationDetails view = views.operation(target, done, true);
                        return ApiResponse.ok(view);
                    },
                    failed -> audit(request, "update", id, "refused", "503: its record could not be written"));
        }).thenCompose(future -> future));
    }

    private static Resources limits(Quantities quantities) {
        LoadResult<PartialResources> parsed = ResourcesParser.parse(ApiJson.write(quantities), "resource_limits");
        if (!parsed.ok()) {
            throw new ApiException(400, "INVALID_SPEC", parsed.describe(), new ErrorDetails.Problems(problems(parsed.problems())));
        }
        return parsed.value().asLimits();
    }
}
