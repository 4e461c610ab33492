package io.grove.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;

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
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();

    public SchedulerClient(Target target) {
        this.target = target;
    }

    public Target target() {
        return target;
    }

    public ObjectMapper json() {
        return json;
    }

    public JsonNode get(String path) throws CliException {
        return send("GET", path, null, null);
    }

    public JsonNode post(String path, String body, String contentType) throws CliException {
        return send("POST", path, body, contentType);
    }

    public JsonNode patch(String path, String body) throws CliException {
        return send("PATCH", path, body, "application/json");
    }

    /** A request to the scheduler's API ({@code path} under {@code /api/v1}). */
    public JsonNode send(String method, String path, String body, String contentType) throws CliException {
        return request(URI.create(target.scheduler() + "/api/v1" + path), method, body, contentType, "the scheduler",
                "is it running? start one with 'grove local', or point at it with --scheduler or GROVE_SCHEDULER");
    }

    /** A GET to another Grove endpoint (an agent's). */
    public JsonNode getFrom(URI uri, String what) throws CliException {
        return request(uri, "GET", null, null, what, "is the node's agent running?");
    }

    private JsonNode request(URI uri, String method, String body, String contentType, String what, String hint)
            throws CliException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("X-Grove-User", target.user())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        if (target.token() != null && uri.toString().startsWith(target.scheduler().toString())) {
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
        JsonNode answer = parse(response.body());
        int status = response.statusCode();
        if (status / 100 == 2) {
            return answer;
        }
        throw error(status, answer, response.body());
    }

    private CliException error(int status, JsonNode answer, String raw) {
        String code = answer != null && answer.has("code") ? answer.get("code").asText() : "HTTP_" + status;
        String message = answer != null && answer.has("message") ? answer.get("message").asText() : raw.strip();
        StringBuilder line = new StringBuilder(message);
        JsonNode problems = answer == null ? null : answer.path("details").path("problems");
        if (problems != null && problems.isArray()) {
            for (JsonNode problem : problems) {
                line.append("\n  ").append(problem.path("line").asInt() > 0 ? "line " + problem.get("line").asInt() + ": " : "")
                        .append(problem.path("path").asText().isEmpty() ? "" : problem.get("path").asText() + ": ")
                        .append(problem.path("message").asText());
            }
        }
        String hint = HINTS.get(code);
        if (hint != null) {
            line.append(" (").append(hint).append(')');
        }
        int exit = status == 404 ? ExitCodes.NOT_FOUND : status / 100 == 4 ? ExitCodes.REFUSED : ExitCodes.FAILED;
        return new CliException(exit, line.toString());
    }

    private JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? null : json.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static String base(URI uri) {
        return uri.getScheme() + "://" + uri.getAuthority();
    }
}
