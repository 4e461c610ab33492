package io.grove.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler's OpenAPI document, as served: a maintained OpenAPI 3.1 parser finds nothing wrong
 * in it, every route is in it with a summary, every endpoint {@code docs/api.md} names is one of
 * them, and every example body of {@code docs/api.md} validates against its record's schema.
 */
class OpenApiTest {

    static final Path DOCS = Path.of("..", "docs");
    static JsonNode document;
    static String text;

    @BeforeAll
    static void served(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), "pool_trees:\n  physical:\n    pools:\n      prod: {}\n");
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0);
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + daemon.httpPort() + "/api/v1/openapi.json")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            text = answer.body();
            document = new ObjectMapper().readTree(text);
        }
    }

    @Test
    void aMaintainedOpenApiValidatorFindsNothingWrong() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(text, null, options);
        assertNotNull(parsed.getOpenAPI(), String.valueOf(parsed.getMessages()));
        assertEquals(List.of(), parsed.getMessages());
        assertEquals("3.1.0", parsed.getOpenAPI().getOpenapi());
        assertTrue(parsed.getOpenAPI().getComponents().getSchemas().containsKey("OperationSummary"));
        assertTrue(parsed.getOpenAPI().getPaths().get("/api/v1/operations").getPost().getResponses().containsKey("201"),
                "a submission is answered 201");
    }

    @Test
    void aGeneratedClientGetsNamesTypesErrorsPagesAndTheEventStream() {
        assertEquals("/", document.at("/servers/0/url").asText(), "relative: the daemon that serves it");
        java.util.Set<String> ids = new java.util.HashSet<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
            String id = method.getValue().path("operationId").asText();
            // not one made from the path (getOperationsIdJobsJobLogs)
            assertTrue(id.matches("[a-z]+[A-Z][A-Za-z]*") && !id.matches(".*Id[A-Z].*"), "a name people would write: " + id);
            assertTrue(ids.add(id), "one operation per id: " + id);
        }));
        assertTrue(ids.containsAll(List.of("listOperations", "submitOperation", "getOperation", "abortOperation",
                "readJobLog", "streamEvents", "drainNode", "listJobRecords", "getUsage")), ids.toString());

        JsonNode list = document.at("/paths/~1api~1v1~1operations/get");
        Map<String, JsonNode> params = new java.util.HashMap<>();
        list.get("parameters").forEach(p -> params.put(p.get("name").asText(), p));
        assertEquals("integer", params.get("limit").at("/schema/type").asText());
        assertTrue(params.get("limit").hasNonNull("description"));
        List<String> states = new ArrayList<>();
        params.get("state").at("/schema/enum").forEach(v -> states.add(v.asText()));
        assertTrue(states.containsAll(List.of("pending", "running", "completed", "failed", "aborted")), states.toString());
        assertEquals("string", list.at("/responses/200/headers/X-Next-Cursor/schema/type").asText(),
                "the next page's cursor is declared");
        for (String status : List.of("400", "401", "403")) {
            assertEquals("#/components/schemas/ApiError", list.at("/responses/" + status + "/content/application~1json/schema/$ref")
                    .asText(), status + " answers the error record");
        }
        JsonNode submit = document.at("/paths/~1api~1v1~1operations/post/responses");
        assertTrue(submit.has("429") && submit.has("503") && submit.has("400"), submit.toString());
        assertTrue(document.at("/paths/~1api~1v1~1operations~1{id}/get/responses").has("404"));

        JsonNode events = document.at("/paths/~1api~1v1~1events/get/responses/200/content");
        assertTrue(events.has("text/event-stream") && !events.has("application/json"),
                "a generated client reads a stream, not a body it waits for: " + events);
        assertEquals("date-time", document.at("/components/schemas/OperationSummary/properties/submitted_at/format")
                .asText(), "times are date-times");
        assertEquals("date-time", document.at("/components/schemas/Explanation.Band/properties/likely/format").asText());
    }

    @Test
    void everyRouteIsDocumentedAndEveryEndpointOfTheDocsIsARoute() throws Exception {
        List<String> routes = new ArrayList<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
            routes.add(method.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey());
            assertTrue(method.getValue().hasNonNull("summary"), path.getKey() + " " + method.getKey() + " has no summary");
        }));
        assertTrue(routes.size() >= 25, routes.toString());
        Matcher named = Pattern.compile("`(GET|POST|PATCH|PUT|DELETE) (/[^`?\\s]*)").matcher(Files.readString(
                DOCS.resolve("api.md")));
        int seen = 0;
        while (named.find()) {
            String route = named.group(1) + " " + named.group(2).replaceAll("/$", "");
            assertTrue(routes.contains(route), "docs/api.md names " + route + ", which is not a route: " + routes);
            seen++;
        }
        assertTrue(seen >= 20, "docs/api.md names " + seen + " endpoints");
    }

    @Test
    void everyExampleOfTheDocsValidatesAgainstItsRecordsSchema() throws Exception {
        Matcher examples = Pattern.compile("<!-- body: ([A-Za-z.]+)(\\[])? -->[ \\t]*\\n[ \\t]*```(json|yaml)\\n(.*?)\\n[ \\t]*```",
                Pattern.DOTALL).matcher(Files.readString(DOCS.resolve("api.md")));
        int checked = 0;
        while (examples.find()) {
            JsonNode schema = document.at("/components/schemas/" + examples.group(1));
            assertTrue(!schema.isMissingNode(), examples.group(1) + " is not a schema of the document");
            JsonNode example = (examples.group(3).equals("yaml") ? new YAMLMapper() : new ObjectMapper())
                    .readTree(examples.group(4));
            List<JsonNode> bodies = new ArrayList<>();
            if (examples.group(2) != null) {
                example.forEach(bodies::add);
            } else {
                bodies.add(example);
            }
            for (JsonNode body : bodies) {
                List<String> problems = new ArrayList<>();
                validate(body, schema, examples.group(1), problems);
                assertEquals(List.of(), problems, "the example of " + examples.group(1));
            }
            checked++;
        }
        assertTrue(checked >= 15, checked + " examples");
    }

    @Test
    void aWrongExampleIsCaught() {
        List<String> problems = new ArrayList<>();
        JsonNode wrong = new ObjectMapper().createObjectNode().put("id", 17).put("state", "running").put("bogus", 1);
        validate(wrong, document.at("/components/schemas/OperationSummary"), "OperationSummary", problems);
        assertEquals(List.of("OperationSummary.id: a number, not string", "OperationSummary.bogus: not a property"),
                problems);
    }

    /** The subset of JSON Schema the document uses: type, format, enum, properties, items, additionalProperties, $ref. */
    static void validate(JsonNode value, JsonNode schema, String where, List<String> problems) {
        if (schema.has("$ref")) {
            String ref = schema.get("$ref").asText();
            validate(value, document.at(ref.substring(1)), where, problems);
            return;
        }
        if (schema.has("anyOf")) {
            for (JsonNode option : schema.get("anyOf")) {
                List<String> tried = new ArrayList<>();
                validate(value, option, where, tried);
                if (tried.isEmpty()) {
                    return;
                }
            }
            problems.add(where + ": " + value + " is none of " + schema.get("anyOf"));
            return;
        }
        if (!schema.has("type")) {
            return;   // anything
        }
        if (schema.get("type").isArray()) {
            if (value.isNull() && schema.get("type").toString().contains("\"null\"")) {
                return;
            }
            validate(value, ((com.fasterxml.jackson.databind.node.ObjectNode) schema.deepCopy())
                    .put("type", schema.get("type").get(0).asText()), where, problems);
            return;
        }
        String type = schema.get("type").asText();
        boolean fits = switch (type) {
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber() || value.isNumber() && value.asDouble() == Math.rint(value.asDouble());
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            default -> false;
        };
        if (!fits) {
            problems.add(where + ": a " + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ", not " + type);
            return;
        }
        if (schema.has("enum")) {
            boolean listed = false;
            for (JsonNode option : schema.get("enum")) {
                listed |= option.equals(value);
            }
            if (!listed) {
                problems.add(where + ": " + value + " is not one of " + schema.get("enum"));
            }
        }
        if (type.equals("array")) {
            int i = 0;
            for (JsonNode item : value) {
                validate(item, schema.get("items"), where + "[" + i++ + "]", problems);
            }
        }
        if (type.equals("object")) {
            JsonNode properties = schema.get("properties");
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> field = it.next();
                JsonNode property = properties == null ? null : properties.get(field.getKey());
                if (property == null && schema.has("additionalProperties")) {
                    property = schema.get("additionalProperties");
                }
                if (property == null && properties != null) {
                    problems.add(where + "." + field.getKey() + ": not a property");
                } else if (property != null) {
                    validate(field.getValue(), property, where + "." + field.getKey(), problems);
                }
            }
        }
    }
}
