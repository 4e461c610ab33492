package io.grove.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.api.Timestamp;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI 3.1 document of an endpoint, made from its route table ({@link Routes#described()})
 * and the records its routes take and answer, as the endpoint's own JSON mapper writes them
 * (property names, what a {@code @JsonValue} gives, enums as written): there is no second,
 * hand-written description of the API to drift from it. Every record is a schema of
 * {@code components}; its properties are all optional, since the mapper leaves out what does not
 * apply, and more may come in later versions.
 */
public final class OpenApi {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern PARAMETER = Pattern.compile("\\{([^}]+)}");

    private final ObjectMapper mapper;
    private final Map<String, ObjectNode> schemas = new TreeMap<>();

    private OpenApi(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * The document.
     *
     * @param title the API's title
     * @param version its version
     * @param routes the routes, as the route table declares them
     * @param error the record every error answer is
     * @param open the paths that need no bearer token
     */
    public static ObjectNode document(String title, String version, List<Routes.Described> routes, Class<?> error,
            Set<String> open, ObjectMapper mapper) {
        OpenApi builder = new OpenApi(mapper);
        ObjectNode document = NODES.objectNode();
        document.put("openapi", "3.1.0");
        document.putObject("info").put("title", title).put("version", version);
        // relative: the scheduler (or agent) that serves this document
        document.putArray("servers").addObject().put("url", "/")
                .put("description", "the daemon that serves this document");
        ObjectNode paths = document.putObject("paths");
        JsonNode errorSchema = builder.schema(mapper.constructType(error));
        for (Routes.Described route : routes) {
            ObjectNode path = paths.has(route.template()) ? (ObjectNode) paths.get(route.template())
                    : paths.putObject(route.template());
            path.set(route.method().toLowerCase(Locale.ROOT), builder.operation(route, errorSchema,
                    open.contains(route.template())));
        }
        ObjectNode components = document.putObject("components");
        ObjectNode schemaNodes = components.putObject("schemas");
        builder.schemas.forEach(schemaNodes::set);
        components.putObject("securitySchemes").putObject("bearer").put("type", "http").put("scheme", "bearer")
                .put("description", "the scheduler: a token of its tokens file, or a JWT of its identity provider; an agent: the node token");
        document.putArray("security").addObject().putArray("bearer");
        return document;
    }

    private ObjectNode operation(Routes.Described route, JsonNode errorSchema, boolean open) {
        Routes.Doc doc = route.doc();
        ObjectNode operation = NODES.objectNode();
        operation.put("operationId", doc != null && doc.id() != null ? doc.id() : operationId(route));
        if (doc != null && doc.summary() != null) {
            operation.put("summary", doc.summary());
        }
        ArrayNode parameters = NODES.arrayNode();
        Matcher names = PARAMETER.matcher(route.template());
        boolean inPath = false;
        while (names.find()) {
            inPath = true;
            parameters.addObject().put("name", names.group(1)).put("in", "path").put("required", true)
                    .putObject("schema").put("type", "string");
        }
        for (Routes.Param param : doc == null ? List.<Routes.Param>of() : doc.query()) {
            ObjectNode parameter = parameters.addObject().put("name", param.name()).put("in", "query").put("required", false);
            if (param.description() != null) {
                parameter.put("description", param.description());
            }
            ObjectNode schema = parameter.putObject("schema").put("type", param.type());
            if (param.format() != null) {
                schema.put("format", param.format());
            }
            if (!param.values().isEmpty()) {
                ArrayNode values = schema.putArray("enum");
                param.values().forEach(values::add);
            }
        }
        if (!parameters.isEmpty()) {
            operation.set("parameters", parameters);
        }
        if (doc != null && doc.body() != null) {
            ObjectNode content = operation.putObject("requestBody").put("required", true).putObject("content");
            JsonNode body = schema(mapper.constructType(doc.body()));
            content.putObject("application/json").set("schema", body);
            content.putObject("application/yaml").set("schema", body);
        }
        ObjectNode responses = operation.putObject("responses");
        ObjectNode ok = responses.putObject(Integer.toString(doc == null ? 200 : doc.status()));
        ok.put("description", doc != null && doc.summary() != null ? doc.summary() : "done");
        if (doc != null && doc.answer() != null) {
            JsonNode item = schema(mapper.constructType(doc.answer()));
            if (doc.stream()) {
                // each event's data is one record: a generated client must read it as a stream, not wait for a body
                ok.putObject("content").putObject("text/event-stream").set("schema", NODES.objectNode()
                        .put("type", "string").put("description", "server-sent events; each event's data is one "
                                + item.path("$ref").asText().replace("#/components/schemas/", "") + " as JSON"));
                operation.putObject("x-event-schema").setAll((ObjectNode) item);
            } else {
                JsonNode answer = doc.list() ? NODES.objectNode().put("type", "array").set("items", item) : item;
                ok.putObject("content").putObject("application/json").set("schema", answer);
            }
        }
        if (doc != null && doc.paged()) {
            ok.putObject("headers").putObject("X-Next-Cursor").put("description", "the cursor of the next page "
                    + "(give it as ?cursor=); absent on the last page").putObject("schema").put("type", "string");
        }
        for (int status : errors(route, doc, inPath, open)) {
            responses.putObject(Integer.toString(status)).put("description", ERRORS.get(status))
                    .putObject("content").putObject("application/json").set("schema", errorSchema);
        }
        responses.putObject("default").put("description", "an error: its code, message and details")
                .putObject("content").putObject("application/json").set("schema", errorSchema);
        if (open) {
            operation.putArray("security");
        }
        return operation;
    }

    /** What each error status means, for every route that may answer it. */
    static final Map<Integer, String> ERRORS = Map.of(
            400, "the request is invalid: a bad body, parameter or value (code and details say which)",
            401, "no valid bearer token",
            403, "the user may not do this (the message names the rule)",
            404, "no such resource",
            409, "the resource is not in a state that allows it",
            429, "a limit is reached (a pool's operation count); try again later",
            503, "the daemon cannot do it now: it cannot write its state, or it is not the leader");

    /**
     * The errors a route may answer: 400 when it reads parameters or a body, 401 and 403 unless it is
     * open, 404 when its path names a resource, 503 for a change (written ahead), and what its doc adds.
     */
    private static SortedSet<Integer> errors(Routes.Described route, Routes.Doc doc, boolean inPath, boolean open) {
        SortedSet<Integer> out = new TreeSet<>();
        boolean change = !route.method().equals("GET");
        if (change || doc != null && !doc.query().isEmpty()) {
            out.add(400);
        }
        if (!open) {
            out.add(401);
            out.add(403);
        }
        if (inPath) {
            out.add(404);
        }
        if (change) {
            out.add(503);
        }
        if (doc != null) {
            out.addAll(doc.errors());
        }
        return out;
    }

    private static String operationId(Routes.Described route) {
        StringBuilder id = new StringBuilder(route.method().toLowerCase(Locale.ROOT));
        for (String part : route.template().split("[/{}_.]+")) {
            if (!part.isEmpty() && !part.equals("api") && !part.equals("v1")) {
                id.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return id.toString();
    }

    /** The schema of a type as the mapper writes it; a record of the API becomes a component, referred to. */
    JsonNode schema(JavaType type) {
        Class<?> raw = type.getRawClass();
        if (raw == String.class || raw == Character.class || raw == char.class) {
            return NODES.objectNode().put("type", "string");
        }
        if (raw == Instant.class) {
            return NODES.objectNode().put("type", "string").put("format", "date-time");
        }
        if (raw == Duration.class) {
            return NODES.objectNode().put("type", "string");
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return NODES.objectNode().put("type", "boolean");
        }
        if (raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class || raw == short.class
                || raw == Short.class || raw == BigInteger.class) {
            return NODES.objectNode().put("type", "integer");
        }
        if (raw.isPrimitive() || Number.class.isAssignableFrom(raw)) {
            return NODES.objectNode().put("type", "number");
        }
        if (raw.isEnum()) {
            ObjectNode schema = NODES.objectNode().put("type", "string");
            ArrayNode values = schema.putArray("enum");
            for (Object constant : raw.getEnumConstants()) {
                values.add(mapper.valueToTree(constant).asText());
            }
            return schema;
        }
        if (type.isArrayType() || Collection.class.isAssignableFrom(raw)) {
            return NODES.objectNode().put("type", "array").set("items", schema(type.getContentType()));
        }
        if (Map.class.isAssignableFrom(raw)) {
            return NODES.objectNode().put("type", "object").set("additionalProperties", schema(type.getContentType()));
        }
        if (raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
            return NODES.objectNode();
        }
        String name = componentName(raw);
        if (!schemas.containsKey(name)) {
            schemas.put(name, NODES.objectNode());   // taken before its properties: a record may refer to itself
            schemas.put(name, (ObjectNode) object(type));
        }
        return NODES.objectNode().put("$ref", "#/components/schemas/" + name);
    }

    private JsonNode object(JavaType type) {
        BeanDescription bean = mapper.getSerializationConfig().introspect(type);
        var valueAccessor = bean.findJsonValueAccessor();
        if (valueAccessor != null) {
            return schema(valueAccessor.getType());
        }
        ObjectNode schema = NODES.objectNode().put("type", "object");
        addProperties(bean, schema.putObject("properties"));
        return schema;
    }

    /**
     * The properties as the mapper writes them: an unwrapped one's own properties in its place, a
     * property written even when null ({@code JsonInclude.ALWAYS}) as nullable.
     */
    private void addProperties(BeanDescription bean, ObjectNode properties) {
        for (BeanPropertyDefinition property : bean.findProperties()) {
            if (!property.couldSerialize()) {
                continue;
            }
            JavaType propertyType = property.getPrimaryType();
            var accessor = property.getAccessor();
            if (accessor != null && accessor.hasAnnotation(JsonUnwrapped.class)) {
                addProperties(mapper.getSerializationConfig().introspect(propertyType), properties);
                continue;
            }
            boolean custom = accessor != null
                    && accessor.getAnnotation(JsonSerialize.class) != null;
            // a property written by a serializer of its own (whole numbers without ".0") is still a number
            JsonNode schema = custom && Number.class.isAssignableFrom(propertyType.getRawClass())
                    ? NODES.objectNode().put("type", "number") : schema(propertyType);
            if (accessor != null && accessor.hasAnnotation(Timestamp.class)) {
                schema = NODES.objectNode().put("type", "string").put("format", "date-time");
            }
            var inclusion = property.findInclusion();
            boolean nullable = inclusion != null
                    && inclusion.getValueInclusion() == JsonInclude.Include.ALWAYS;
            properties.set(property.getName(), nullable ? nullable(schema) : schema);
        }
    }

    private static JsonNode nullable(JsonNode schema) {
        if (schema.has("type") && schema.get("type").isTextual()) {
            ObjectNode copy = ((ObjectNode) schema).deepCopy();
            copy.putArray("type").add(schema.get("type").asText()).add("null");
            return copy;
        }
        ObjectNode either = NODES.objectNode();
        either.putArray("anyOf").add(schema).addObject().put("type", "null");
        return either;
    }

    private static String componentName(Class<?> raw) {
        String name = raw.getSimpleName();
        for (Class<?> outer = raw.getEnclosingClass(); outer != null; outer = outer.getEnclosingClass()) {
            name = outer.getSimpleName() + "." + name;
        }
        return name;
    }
}
