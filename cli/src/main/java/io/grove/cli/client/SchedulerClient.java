package io.grove.cli.client;

import io.grove.api.ApiError;
import io.grove.api.ApiJson;
import io.grove.api.Problem;
import io.grove.http.ApiServer;
import io.grove.http.DaemonThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Stream;

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

    /** How long a connection may take to open, and an answer to come. */
    static final int CONNECT_MS = 5_000;
    static final int ANSWER_MS = 30_000;
    /** How long an event stream may take to answer before the caller polls instead. */
    static final int STREAM_OPEN_MS = 10_000;

    private final Target target;
    /** The scheduler that answered last (the leader, in a group). */
    private URI current;
    /** Made for the first event stream. */
    private HttpClient streams;

    public SchedulerClient(Target target) {
        this.target = target;
        this.current = target.scheduler();
    }

    /**
     * A connection for one request. The JDK's {@code HttpURLConnection} rather than its
     * {@code HttpClient}: the latter's selector thread waits in native code, and a JVM does not
     * exit until such a thread has been given 0.3 s (JDK 17), which was half of every API
     * command's time. No proxy is used and no redirect followed, as with the {@code HttpClient}.
     */
    private HttpURLConnection open(URI uri, String method) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
        connection.setConnectTimeout(CONNECT_MS);
        connection.setReadTimeout(ANSWER_MS);
        connection.setInstanceFollowRedirects(false);
        if (method.equals("PATCH")) {
            // HttpURLConnection has no PATCH; the API takes it as a POST that says so
            connection.setRequestMethod("POST");
            connection.setRequestProperty(ApiServer.METHOD_OVERRIDE, "PATCH");
        } else {
            connection.setRequestMethod(method);
        }
        identity(uri).forEach(connection::setRequestProperty);
        if (!method.equals("GET")) {
            // the JDK sends a POST again once when its connection fails before the answer; with a key
            // of its own the scheduler makes a submission sent twice once
            connection.setRequestProperty("Idempotency-Key", "grove-" + UUID.randomUUID());
        }
        return connection;
    }

    /** Who asks: the user, and the token for a scheduler of the target's (never for another endpoint). */
    private Map<String, String> identity(URI uri) {
        boolean ours = target.group().stream().anyMatch(s -> uri.toString().startsWith(s + "/"));
        return target.token() != null && ours ? Map.of("X-Grove-User", target.user(), "Authorization", "Bearer " + target.token())
                : Map.of("X-Grove-User", target.user());
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
        URI uri = URI.create(current + "/api/v1/events" + query);
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream");
        identity(uri).forEach(builder::header);
        HttpResponse<Stream<String>> response;
        try {
            response = streams().sendAsync(builder.build(), HttpResponse.BodyHandlers.ofLines())
                    .get(STREAM_OPEN_MS, TimeUnit.MILLISECONDS);
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

    /**
     * The JDK's {@code HttpClient}, for event streams only (commands that follow an operation and
     * run for as long as it does): a stream it reads can be closed from another thread at once,
     * where an {@code HttpURLConnection}'s waits for the stream's next event.
     */
    private HttpClient streams() {
        if (streams == null) {
            streams = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(CONNECT_MS)).build();
        }
        return streams;
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
        HttpURLConnection connection = null;
        boolean connected = false;
        try {
            connection = open(uri, method);
            if (contentType != null) {
                connection.setRequestProperty("Content-Type", contentType);
            }
            connection.setDoOutput(body != null);
            connection.connect();
            connected = true;
            if (body != null) {
                // buffered, not streamed: a streamed body's 401 would be an HttpRetryException instead of the answer
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body.getBytes(StandardCharsets.UTF_8));
                }
            }
            int status = connection.getResponseCode();
            String text = text(status / 100 == 2 ? connection.getInputStream() : connection.getErrorStream());
            if (status / 100 == 2) {
                return new Answer(text, connection.getHeaderField("X-Next-Cursor"));
            }
            ApiError refused = parseError(text);
            if (status == 503 && refused != null && "NOT_LEADER".equals(refused.code())) {
                Object leader = refused.details() == null ? null : refused.details().get("leader");
                throw new NotLeader(refused.message(), leader == null ? null : String.valueOf(leader));
            }
            throw error(status, refused, text);
        } catch (ConnectException e) {
            throw new CliException(ExitCodes.UNREACHABLE, "cannot reach " + what + " at " + base(uri) + " ("
                    + (e.getMessage() == null ? "connection refused" : e.getMessage()) + "); " + hint);
        } catch (SocketTimeoutException e) {
            throw new CliException(ExitCodes.UNREACHABLE, connected
                    ? what + " at " + base(uri) + " did not answer within " + ANSWER_MS / 1000 + " s"
                    : "cannot reach " + what + " at " + base(uri) + " (no connection within " + CONNECT_MS / 1000 + " s); "
                            + hint);
        } catch (IOException e) {
            if (connection != null) {
                connection.disconnect();
            }
            throw new CliException(ExitCodes.UNREACHABLE, "cannot reach " + what + " at " + base(uri) + " ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); " + hint);
        }
    }

    /** An answer's whole body (read to its end, so that its connection is kept for the next request). */
    private static String text(InputStream in) throws IOException {
        if (in == null) {
            return "";
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
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
