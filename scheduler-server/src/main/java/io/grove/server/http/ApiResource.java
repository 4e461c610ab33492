package io.grove.server.http;

import io.grove.api.ConfigView;
import io.grove.api.ErrorDetails;
import io.grove.api.Problem;
import io.grove.core.cluster.ClusterView;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.forecast.Cadence;
import io.grove.core.operation.Operation;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.AccessControl;
import io.grove.core.pool.ConfigProblem;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Futures;
import io.grove.http.Routes;
import io.grove.server.Clock;
import io.grove.server.ConfigReloader;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.metrics.PoolHistory;
import io.grove.server.metrics.SchedulerMetrics;
import io.grove.server.security.AuditLog;
import io.grove.server.state.StateLog;
import io.grove.server.state.WriteAhead;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * What every resource of the API shares: the daemon's parts it reads and changes (reads and
 * changes run on the scheduler's thread; a change is answered after its journal record is on disk),
 * and the helpers for answers, refusals, access checks and the audit log.
 */
abstract class ApiResource {

    /** The daemon's parts the API works with. */
    record Parts(SchedulerLoop loop, StateLog journal, WriteAhead writeAhead, Clock clock, ConfigReloader config, SchedulerMetrics metrics,
            AtomicLong operationNumbers, Views views, AuditLog audit, String nodeToken, Runnable workArrived,
            Cadence cadence) {
    }

    final SchedulerLoop loop;
    final StateLog journal;
    final WriteAhead writeAhead;
    final Clock clock;
    final ConfigReloader config;
    final SchedulerMetrics metrics;
    final AtomicLong operationNumbers;
    final Views views;
    final AuditLog audit;
    final String nodeToken;
    /** Told when work arrives (a submission is made): the daemon updates fair shares early and asks nodes to heartbeat. */
    final Runnable workArrived;
    /** How often nodes heartbeat and fair shares are updated: forecasts run their copies at it. */
    final Cadence cadence;
    final PoolHistory history;

    ApiResource(Parts parts) {
        this.loop = parts.loop();
        this.journal = parts.journal();
        this.writeAhead = parts.writeAhead();
        this.clock = parts.clock();
        this.config = parts.config();
        this.metrics = parts.metrics();
        this.operationNumbers = parts.operationNumbers();
        this.views = parts.views();
        this.audit = parts.audit();
        this.nodeToken = parts.nodeToken();
        this.workArrived = parts.workArrived();
        this.cadence = parts.cadence();
        this.history = parts.metrics().history();
    }

    /** Declares the resource's routes. */
    abstract void addTo(Routes.Builder routes);

    static CompletableFuture<ApiResponse> ok(Object body) {
        return CompletableFuture.completedFuture(ApiResponse.ok(body));
    }

    /**
     * A view built on the scheduler's thread once no heartbeat or change waits, answered
     * {@code 200}; not built at all if its client has left by then.
     */
    CompletableFuture<ApiResponse> read(ApiRequest request, Function<ClusterView, ?> view) {
        return loop.read(cluster -> {
            present(request);
            return view.apply(cluster);
        }).thenApply(ApiResponse::ok);
    }

    /** Goes on only while the request's client is there: work for one that left is skipped (and counted). */
    void present(ApiRequest request) {
        if (request.abandoned()) {
            metrics.abandoned();
            throw new ApiException(499, "CLIENT_GONE", "the client closed its connection; its request was dropped");
        }
    }

    /** The operation {@code id}; 404 when there is none, or its submission is still being written. */
    static Operation operation(ClusterView cluster, String id) {
        Operation operation = cluster.registry().operation(id);
        if (operation == null || operation.held()) {
            throw new ApiException(404, "NO_SUCH_OPERATION", "no operation " + id, new ErrorDetails.Operation(id));
        }
        return operation;
    }

    /**
     * The operation, if {@code request}'s user may change it: its owner, an administrator of its
     * pool (in any of its trees), or a cluster admin; else 403 with the rule.
     */
    Operation mayChange(ApiRequest request, ClusterView cluster, Operation operation,
            String action) {
        String rule = refusal(request, cluster, operation);
        if (rule == null) {
            return operation;
        }
        throw forbidden(request, action, operation.id(), "user " + request.user() + " may not " + action + " "
                + operation.id() + " of " + operation.user() + ": only its owner and its pool's administrators may ("
                + rule + ")");
    }

    /** Whether {@code request}'s user may see what the operation's jobs printed (as {@link #mayChange}). */
    boolean mayReadOutput(ApiRequest request, ClusterView cluster, Operation operation) {
        return refusal(request, cluster, operation) == null;
    }

    /** {@code null} when the user is the operation's owner or administers one of its pools; else the rule that refuses. */
    private String refusal(ApiRequest request, ClusterView cluster, Operation operation) {
        if (operation.user().equals(request.user())) {
            return null;
        }
        return refusal(identity(request), cluster.registry().pathsToRoot(operation));
    }

    /** {@code null} when {@code identity} administers one of the pools (tree to path to the root); else the rule that refuses. */
    private String refusal(AccessControl.Identity identity, Map<String, List<String>> placements) {
        AccessControl access = config.current().access();
        String rule = null;
        for (Map.Entry<String, List<String>> placed : placements.entrySet()) {
            AccessControl.Decision decision = access.mayAdminister(placed.getKey(), placed.getValue(), identity);
            if (decision.allowed()) {
                return null;
            }
            rule = decision.rule();
        }
        return rule == null ? "no rule allows it" : rule;
    }

    /** Whether {@code identity} administers one of the pools (tree to path to the root), as the views decide. */
    boolean mayAdminister(AccessControl.Identity identity, Map<String, List<String>> placements) {
        return refusal(identity, placements) == null;
    }


    /**
     * A change's answer, with a change whose record could not be written answered {@code 503}: it
     * was not made ({@code NOT_WRITTEN}), or, when the store lost its connection, it may have been
     * ({@code OUTCOME_UNKNOWN}: a retry with the same {@code Idempotency-Key} is safe).
     */
    static CompletableFuture<ApiResponse> written(CompletableFuture<ApiResponse> change) {
        return Futures.translate(change, cause -> {
            if (!(cause instanceof WriteAhead.NotWritten notWritten)) {
                return null;
            }
            if (notWritten.unknown()) {
                return new ApiException(503, "OUTCOME_UNKNOWN", "whether the change was saved is unknown ("
                        + notWritten.getMessage() + "); it is not in effect here; retry it (a submission with the "
                        + "same Idempotency-Key is made once)", Map.of());
            }
            return new ApiException(503, "NOT_WRITTEN", "the change was not made: the scheduler cannot write its "
                    + "state (" + notWritten.getMessage() + "); try again later", Map.of());
        });
    }

    ApiException forbidden(ApiRequest request, String action, String target, String message) {
        audit(request, action, target, "refused", "403: " + message);
        return new ApiException(403, "FORBIDDEN", message, new ErrorDetails.Rule(message));
    }

    void audit(ApiRequest request, String action, String target, String outcome, String detail) {
        if (audit != null) {
            audit.record(clock.now(), request.user(), request.source(), action, target, outcome, detail);
        }
    }

    static ApiException refusal(SubmitException e) {
        int status = switch (e.code()) {
            case TOO_MANY_OPERATIONS, TOO_MANY_EPHEMERAL_POOLS -> 429;
            case NO_SUCH_OPERATION -> 404;
            case FOREIGN_EPHEMERAL_POOL, FOREIGN_OPERATION -> 403;
            case INVALID_STATE -> 409;
            default -> 400;
        };
        return new ApiException(status, e.code().name(), e.getMessage(), e.details());
    }

    static int intParam(ApiRequest request, String name, int fallback) {
        String value = request.query().get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ApiException(400, "BAD_PARAMETER", "'" + name + "' must be a number, got '" + value + "'");
        }
    }

    static FairShareResult result(ClusterView cluster, String tree) {
        if (!cluster.treeNames().contains(tree)) {
            throw new ApiException(404, "NO_SUCH_TREE", "no pool tree " + tree + "; trees: " + cluster.treeNames(),
                    new ErrorDetails.Tree(tree));
        }
        FairShareResult result = cluster.fairShare(tree);
        if (result == null) {
            throw new ApiException(409, "NO_FAIR_SHARE_YET", "tree " + tree + " has had no fair-share update yet");
        }
        return result;
    }

    static ConfigView.ReloadStatus status(ConfigReloader.Status status) {
        return new ConfigView.ReloadStatus(status.at().toString(), status.applied(), status.message(),
                problems(status.problems()));
    }

    static List<Problem> problems(List<ConfigProblem> problems) {
        List<Problem> out = new ArrayList<>();
        for (ConfigProblem problem : problems) {
            out.add(new Problem(ApiValues.lower(problem.code()), problem.path(), problem.attribute(), problem.line(),
                    problem.message()));
        }
        return out;
    }

    /** Who makes the request, for access rules. */
    static AccessControl.Identity identity(ApiRequest request) {
        return new AccessControl.Identity(request.user() == null ? "" : request.user(), request.groups());
    }
}
