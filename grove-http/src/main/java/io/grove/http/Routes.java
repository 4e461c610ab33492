package io.grove.http;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A route table: {@code (method, path template) → handler}. A template is a path with
 * {@code {name}} segments that capture the request's segment ({@code /api/v1/operations/{id}}).
 * Routes are tried in the order they were added. A handler answers with a future, so that work on
 * another thread (the scheduler's) never holds a network thread; a <em>blocking</em> handler (files,
 * parsing a large body) runs on the executor given to the table, never on an event loop.
 */
public final class Routes implements Function<ApiRequest, CompletableFuture<ApiResponse>> {

    /** A handler that answers later. */
    @FunctionalInterface
    public interface Handler {
        CompletableFuture<ApiResponse> handle(ApiRequest request, PathParams params);
    }

    /** A handler that blocks while it works; it runs on the table's executor. */
    @FunctionalInterface
    public interface BlockingHandler {
        ApiResponse handle(ApiRequest request, PathParams params);
    }

    /** The segments a template captured, by name. */
    public record PathParams(Map<String, String> values) {
        public PathParams {
            values = Map.copyOf(values);
        }

        public String get(String name) {
            String value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException("no path parameter '" + name + "'");
            }
            return value;
        }
    }

    /**
     * What a route takes and answers, for the API's OpenAPI document: a summary, the request body's
     * record ({@code null}: none), the answer's record ({@code null}: not JSON, or nothing), whether
     * the answer is a list of it, the query parameters it reads, its status when it succeeds, its
     * operation id ({@code null}: made from its path), the error statuses it answers besides those
     * every route may ({@link OpenApi}), whether a list comes a page at a time ({@code
     * X-Next-Cursor}), and whether the answer is a stream of server-sent events of the answer's record.
     */
    public record Doc(String summary, Class<?> body, Class<?> answer, boolean list, List<Param> query, int status,
            String id, List<Integer> errors, boolean paged, boolean stream) {
        public Doc {
            query = query == null ? List.of() : List.copyOf(query);
            errors = errors == null ? List.of() : List.copyOf(errors);
        }

        /** A route whose answer is no record of the API (text, a page, this document). */
        public static Doc untyped(String summary) {
            return new Doc(summary, null, null, false, List.of(), 200, null, List.of(), false, false);
        }

        /** A route answering {@code answer}. */
        public static Doc of(String summary, Class<?> answer) {
            return new Doc(summary, null, answer, false, List.of(), 200, null, List.of(), false, false);
        }

        /** A route answering a list of {@code item}. */
        public static Doc listOf(String summary, Class<?> item) {
            return new Doc(summary, null, item, true, List.of(), 200, null, List.of(), false, false);
        }

        /** With a request body of {@code record}. */
        public Doc taking(Class<?> record) {
            return new Doc(summary, record, answer, list, query, status, id, errors, paged, stream);
        }

        /** With these query parameters. */
        public Doc query(Param... parameters) {
            return new Doc(summary, body, answer, list, List.of(parameters), status, id, errors, paged, stream);
        }

        /** Answering {@code 201 Created} when it succeeds. */
        public Doc created() {
            return new Doc(summary, body, answer, list, query, 201, id, errors, paged, stream);
        }

        /** Named {@code operationId} (what generated clients call it: {@code listOperations}). */
        public Doc id(String operationId) {
            return new Doc(summary, body, answer, list, query, status, operationId, errors, paged, stream);
        }

        /** Answering these error statuses too ({@code 409}, {@code 429}). */
        public Doc errors(Integer... statuses) {
            return new Doc(summary, body, answer, list, query, status, id, List.of(statuses), paged, stream);
        }

        /** A list a page at a time: the next page's cursor in {@code X-Next-Cursor}. */
        public Doc pagedByCursor() {
            return new Doc(summary, body, answer, list, query, status, id, errors, true, stream);
        }

        /** Server-sent events, each event's data one answer record. */
        public Doc eventStream() {
            return new Doc(summary, body, answer, list, query, status, id, errors, paged, true);
        }
    }

    /**
     * A query parameter as the OpenAPI document says it: its name, its JSON type ({@code string},
     * {@code integer}), its format ({@code date-time}) or the values it may take, and what it means.
     */
    public record Param(String name, String type, String format, List<String> values, String description) {
        public Param {
            values = values == null ? List.of() : List.copyOf(values);
        }

        public static Param text(String name, String description) {
            return new Param(name, "string", null, List.of(), description);
        }

        public static Param integer(String name, String description) {
            return new Param(name, "integer", null, List.of(), description);
        }

        /** One of {@code values}; anything else is refused with {@code 400 BAD_PARAMETER}. */
        public static Param oneOf(String name, String description, String... values) {
            return new Param(name, "string", null, List.of(values), description);
        }
    }

    /** A route as declared: its method, its path template ({@code /api/v1/operations/{id}}), and its doc. */
    public record Described(String method, String template, Doc doc) {
    }

    private record Route(String method, String[] template, Handler handler, Doc doc) {
    }

    private final List<Route> routes;
    private final Function<ApiRequest, ApiException> notFound;

    private Routes(List<Route> routes, Function<ApiRequest, ApiException> notFound) {
        this.routes = List.copyOf(routes);
        this.notFound = notFound;
    }

    /**
     * @param blocking where blocking handlers run
     * @param notFound the refusal of a request no route takes
     */
    public static Builder builder(Executor blocking, Function<ApiRequest, ApiException> notFound) {
        return new Builder(blocking, notFound);
    }

    /** Every route in the order declared. */
    public List<Described> described() {
        List<Described> out = new ArrayList<>();
        for (Route route : routes) {
            out.add(new Described(route.method(), "/" + String.join("/", route.template()), route.doc()));
        }
        return out;
    }

    @Override
    public CompletableFuture<ApiResponse> apply(ApiRequest request) {
        List<String> path = request.path();
        for (Route route : routes) {
            if (!route.method().equals(request.method()) || route.template().length != path.size()) {
                continue;
            }
            Map<String, String> params = match(route.template(), path);
            if (params != null) {
                return route.handler().handle(request, new PathParams(params));
            }
        }
        throw notFound.apply(request);
    }

    private static Map<String, String> match(String[] template, List<String> path) {
        Map<String, String> params = null;
        for (int i = 0; i < template.length; i++) {
            String part = template[i];
            if (part.startsWith("{") && part.endsWith("}")) {
                if (params == null) {
                    params = new HashMap<>();
                }
                params.put(part.substring(1, part.length() - 1), path.get(i));
            } else if (!part.equals(path.get(i))) {
                return null;
            }
        }
        return params == null ? Map.of() : params;
    }

    /** Declares routes; resources may each add theirs. */
    public static final class Builder {
        private final Executor blocking;
        private final Function<ApiRequest, ApiException> notFound;
        private final List<Route> routes = new ArrayList<>();

        private Builder(Executor blocking, Function<ApiRequest, ApiException> notFound) {
            this.blocking = blocking;
            this.notFound = notFound;
        }

        public Builder get(String template, Handler handler) {
            return add("GET", template, handler);
        }

        public Builder post(String template, Handler handler) {
            return add("POST", template, handler);
        }

        public Builder patch(String template, Handler handler) {
            return add("PATCH", template, handler);
        }

        /** A route whose handler blocks: it runs on the blocking executor. */
        public Builder blocking(String method, String template, BlockingHandler handler) {
            return add(method, template, (request, params) -> CompletableFuture.supplyAsync(
                    () -> handler.handle(request, params), blocking));
        }

        public Builder add(String method, String template, Handler handler) {
            String trimmed = template.startsWith("/") ? template.substring(1) : template;
            String[] parts = trimmed.isEmpty() ? new String[0] : trimmed.split("/");
            routes.add(new Route(method, parts, handler, null));
            return this;
        }

        /** Documents the route declared last. */
        public Builder doc(Doc doc) {
            Route last = routes.remove(routes.size() - 1);
            routes.add(new Route(last.method(), last.template(), last.handler(), doc));
            return this;
        }

        public Routes build() {
            return new Routes(routes, notFound);
        }
    }

    /**
     * Threads for blocking handlers: as many as the work needs, each ending after a minute idle,
     * daemon threads so that they never hold a process open.
     */
    public static Executor blockingExecutor(String threadName) {
        return Executors.newCachedThreadPool(DaemonThreads.named(threadName));
    }

    /** A helper for handlers that already have their answer. */
    public static CompletableFuture<ApiResponse> done(ApiResponse response) {
        return CompletableFuture.completedFuture(response);
    }
}
