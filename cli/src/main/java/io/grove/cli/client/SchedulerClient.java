package io.grove.cli.client;

import io.grove.api.ApiError;
import io.grove.api.ApiJson;
import io.grove.api.Problem;
import io.grove.http.DaemonThreads;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * The scheduler's HTTP API as the commands use it. Every failure becomes a {@link CliException}
 * with one line — the scheduler's own reason and a hint where there is one — and its exit code.
 */
public final class SchedulerClient {

    private static final Map<String, String> HINTS = Map.of(
            "TOO_MANY_OPERATIONS", "wait for operations of the pool to finish, or submit to another pool",
            "UNKNOWN_POOL", "see the pools with 'grove pools'",
            "UNKNOWN_TREE", "see the trees with 'grove pools --tree NAME' or GET /api/v1/pool_trees",
            "NO_SUCH_OPERATION", "see your operations with 'grove ops list --all'",
            "INVALID_STATE", "the operation has finished already",
            "USER_REQUIRED", "say who you are with --user",
            "NO_FAIR_SHARE_YET", "the scheduler has not computed fair shares yet; try again in a second",
            "FORBIDDEN", "ask an administrator of the pool");

    private final Target target;
    /** The scheduler that answered last (the leader, in a group). */
    private URI current;
    private final HttpClient http;

    public SchedulerClient(Target target) {
        this.target = target;
        this.current = target.scheduler();
        this.http = client(target);
    }

    /**
     * The HTTP client. For schedulers on plain {@code http} it gets a TLS context that trusts
     * nothing, never used: the JDK's default one reads and parses its whole trust store when the
     * client is made, a third of a short command's time.
     */
    static HttpClient client(Target target) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        List<URI> schedulers = new ArrayList<>(target.group() == null ? List.of() : target.group());
        schedulers.add(target.scheduler());
        if (schedulers.stream().noneMatch(uri -> "https".equalsIgnoreCase(uri.getScheme()))) {
            try {
                SSLContext none = SSLContext.getInstance("TLS");
                none.init(null, new TrustManager[0], null);
                builder.sslContext(none);
            } catch (GeneralSecurityException e) {
                // the default context, then
            }
        }
        return builder.build();
    }

    public Target target() {
        return target;
    }

    /** {@code GET} of a body (a path under {@code /api/v1}). */
    public <T> T get(String path, Class<T> type) throws CliException {
        return read(send("GET", path, null, null).body(), type);
    }

    /** {@code GET} of a whole list of bodies, page after page. */
    public <T> List<T> list(String path, Class<T> type) throws CliException {
        return list(path, type, Integer.MAX_VALUE).items();
    }

    /** The longest page the API answers. */
    private static final int PAGE = 1000;

    /** Part of a list: its first items, and whether the list goes on. */
    public record Page<T>(List<T> items, boolean more) {
    }

    /**
     * {@code GET} of a list, page after page (the API answers a page at a time, with the next one's
     * cursor in {@code X-Next-Cursor}), until it ends or {@code max} items are read.
     */
    public <T> Page<T> list(String path, Class<T> type, int max) throws CliException {
        List<T> items = new ArrayList<>();
        String cursor = null;
        String separator = path.contains("?") ? "&" : "?";
        do {
            int limit = (int) Math.min(PAGE, (long) max - items.size());
            Answer answer = send("GET", path + separator + "limit=" + limit + (cursor == null ? "" : "&cursor="
                    + URLEncoder.encode(cursor, StandardCharsets.UTF_8)), null, null);
            try {
                items.addAll(ApiJson.mapper().readValue(answer.body(),
                        ApiJson.mapper().getTypeFactory().constructCollectionType(List.class, type)));
            } catch (IOException e) {
                throw unreadable(type, e.getMessage());
            }
            cursor = answer.nextCursor();
        } while (cursor != null && items.size() < max);
        return new Page<>(items, cursor != null);
    }

    public <T> T post(String path, String body, String contentType, Class<T> type) throws CliException {
        return read(send("POST", path, body, contentType).body(), type);
    }

    /** {@code POST} of a body record as JSON. */
    public <T> T post(String path, Object body, Class<T> type) throws CliException {
        return post(path, ApiJson.write(body), "application/json", type);
    }

    public <T> T patch(String path, Object body, Class<T> type) throws CliException {
        return read(send("PATCH", path, ApiJson.write(body), "application/json").body(), type);
    }

    /**
     * A request to the scheduler's API ({@code path} under {@code /api/v1}); the answer's text. With a
     * group of schedulers, one that cannot be reached is passed over, and a standby's
     * {@code NOT_LEADER} is followed to the leader it names when the leader is one of the group.
     */
    /** An answer's text and, for a page of a list, the next page's cursor. */
    private record Answer(String body, String nextCursor) {
    }

    private Answer send(String method, String path, String body, String contentType) throws CliException {
        List<URI> group = target.group();
        URI at = current;
        CliException last = null;
        for (int attempt = 0; attempt <= group.size(); attempt++) {
            try {
                Answer answer = request(URI.create(at + "/api/v1" + path), method, body, contentType, "the scheduler",
                        "is it running? start one with 'grove local', or point at it with --scheduler or GROVE_SCHEDULER");
                current = at;
                return answer;
            } catch (NotLeader standby) {
                last = standby;
                URI leader = standby.leader == null ? null : group.stream()
                        .filter(u -> u.toString().equals(standby.leader)).findFirst().orElse(null);
                if (leader == null) {
                    throw standby;
                }
                at = leader;
            } catch (CliException e) {
                if (e.exitCode() != ExitCodes.UNREACHABLE || group.size() == 1) {
                    throw e;
                }
                last = e;
                at = group.get((group.indexOf(at) + 1) % group.size());
            }
        }
        throw last;
    }

    /** A standby's answer: who leads, if it knows. */
    private static final class NotLeader extends CliException {
        final String leader;

        NotLeader(String message, String leader) {
            super(ExitCodes.REFUSED, message);
            this.leader = leader;
        }
    }

    /**
     * Follows {@code GET /api/v1/events?QUERY} of the scheduler that answered last, in the
     * background: each event's data goes to {@code events}. Returns {@code null} when the stream
     * cannot be opened (a scheduler without it: the caller polls instead). Closing the feed ends it.
     */
    public AutoCloseable events(String query, Consumer<String> events) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(current + "/api/v1/events" + query))
                .header("X-Grove-User", target.user()).header("Accept", "text/event-stream");
        if (target.token() != null) {
            builder.header("Authorization", "Bearer " + target.token());
        }
        HttpResponse<Stream<String>> response;
        try {
            response = http.sendAsync(builder.build(), HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (response.statusCode() != 200) {
            response.body().close();
            return null;
        }
        Stream<String> lines = response.body();
        DaemonThreads.start("grove-events", () -> {
            try {
                lines.forEach(line -> {
                    if (line.startsWith("data: ")) {
                        events.accept(line.substring(6));
                    }
                });
            } catch (RuntimeException ended) {
                // the stream ended or was closed
            }
        });
        return lines::close;
    }

    /** A GET to another Grove endpoint (an agent's). */
    public <T> T getFrom(URI uri, String what, Class<T> type) throws CliException {
        return read(request(uri, "GET", null, null, what, "is the node's agent running?").body(), type);
    }

    private static <T> T read(String answer, Class<T> type) throws CliException {
        try {
            return ApiJson.read(answer, type);
        } catch (IllegalArgumentException e) {
            throw unreadable(type, e.getMessage());
        }
    }

    private static CliException unreadable(Class<?> type, String why) {
        return new CliException(ExitCodes.FAILED, "the answer is not the " + type.getSimpleName()
                + " this version of grove reads (" + why + "); are the scheduler and grove of the same version?");
    }

    private Answer request(URI uri, String method, String body, String contentType, String what, String hint)
            throws CliException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("X-Grove-User", target.user())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        if (target.token() != null && target.group().stream().anyMatch(s -> uri.toString().startsWith(s + "/"))) {
            builder.header("Authorization", "Bearer " + target.token());
        }
        HttpResponse<String> response;
        try {
            response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw new CliException(ExitCodes.UNREACHABLE, "cannot reach " + what + " at " + base(uri) + " ("
                    + (e.getMessage() == null ? "connection refused" : e.getMessage()) + "); " + hint);
        } catch (HttpTimeoutException e) {
            throw new CliException(ExitCodes.UNREACHABLE, what + " at " + base(uri) + " did not answer within 30 s");
        } catch (IOException e) {
            throw new CliException(ExitCodes.UNREACHABLE, "cannot reach " + what + " at " + base(uri) + " ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); " + hint);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.FAILED, "interrupted");
        }
        int status = response.statusCode();
        if (status / 100 == 2) {
            return new Answer(response.body(), response.headers().firstValue("X-Next-Cursor").orElse(null));
        }
        ApiError refused = parseError(response.body());
        if (status == 503 && refused != null && "NOT_LEADER".equals(refused.code())) {
            Object leader = refused.details() == null ? null : refused.details().get("leader");
            throw new NotLeader(refused.message(), leader == null ? null : String.valueOf(leader));
        }
        throw error(status, refused, response.body());
    }

    private CliException error(int status, ApiError answer, String raw) {
        String code = answer != null && answer.code() != null ? answer.code() : "HTTP_" + status;
        String message = answer != null && answer.message() != null ? answer.message() : raw.strip();
        StringBuilder line = new StringBuilder(message);
        for (Problem problem : answer == null ? List.<Problem>of() : answer.problems()) {
            line.append("\n  ").append(problem.line() > 0 ? "line " + problem.line() + ": " : "")
                    .append(problem.path() == null || problem.path().isEmpty() ? "" : problem.path() + ": ")
                    .append(problem.message());
        }
        String hint = HINTS.get(code);
        if (hint != null) {
            line.append(" (").append(hint).append(')');
        }
        int exit = status == 404 ? ExitCodes.NOT_FOUND : status / 100 == 4 ? ExitCodes.REFUSED : ExitCodes.FAILED;
        return new CliException(exit, line.toString());
    }

    /** The error an answer carries, or {@code null} when it is not the API's error JSON (a proxy's page). */
    private static ApiError parseError(String body) {
        try {
            return body == null || body.isBlank() ? null : ApiJson.read(body, ApiError.class);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String base(URI uri) {
        return uri.getScheme() + "://" + uri.getAuthority();
    }
}
