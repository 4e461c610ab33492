package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.UncheckedIOException;

/**
 * The one JSON mapper of the API: field names in snake_case from the records' component names,
 * absent (null) fields left out unless a record says otherwise, output pretty-printed. Clients read
 * tolerantly — a newer daemon may add fields — and the daemons read request bodies strictly.
 */
public final class ApiJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL,
                    JsonInclude.Include.ALWAYS))
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private ApiJson() {
    }

    /** The mapper itself, for trees and for libraries that take one. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** A body as the API writes it. */
    /** A body on one line (an event's data). */
    public static String writeCompact(Object body) {
        try {
            return MAPPER.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String write(Object body) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A body as a tree, for tests and for printing. */
    public static JsonNode tree(Object body) {
        return MAPPER.valueToTree(body);
    }

    /** Reads what a daemon answered; fields this version does not know are skipped. */
    public static <T> T read(String text, Class<T> type) {
        try {
            return MAPPER.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(describe(e), e);
        }
    }

    /** Reads a request body: a field the record does not have is an error. */
    public static <T> T readStrict(String text, Class<T> type) {
        try {
            return strict(type).readValue(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(describe(e), e);
        }
    }

    /** A reader that refuses fields the record does not have. */
    public static ObjectReader strict(Class<?> type) {
        return MAPPER.readerFor(type).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /** One line for a body that does not fit its record: which field, where. */
    public static String describe(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            return "unknown field '" + unknown.getPropertyName() + "'; known: " + unknown.getKnownPropertyIds();
        }
        String message = e.getOriginalMessage();
        return e.getLocation() == null ? message
                : message + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }
}
