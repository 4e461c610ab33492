package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.resource.Resources;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Messages to and from JSON: snake_case field names, unknown fields refused, every failure turned
 * into a {@link ProtocolException} that names the field.
 */
public final class ProtocolJson {

    /** How deep a message may nest: the deepest valid one nests 4 levels; a deeper one is refused early. */
    public static final int MAX_DEPTH = 32;

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH).build())
                    .build())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
            .addMixIn(Resources.class, ResourcesMixin.class)
            .addMixIn(OperationSpec.class, OperationSpecMixin.class)
            .addMixIn(TaskSpec.class, TaskSpecMixin.class)
            .build();

    /**
     * A spec that is not a gang held to a topology is written without {@code topology}, as before
     * there was one: its record reads the same to a build that does not know the field.
     */
    private abstract static class OperationSpecMixin {
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = NoTopology.class)
        abstract GangTopology topology();
    }

    /** A task without a time limit of its own is written as before there was one. */
    private abstract static class TaskSpecMixin {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Long timeLimitMillis();
    }

    /** Jackson's value filter: {@code equals} is true for what is left out. */
    private static final class NoTopology {
        @Override
        public boolean equals(Object value) {
            return value == null || GangTopology.NONE.equals(value);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /** Resources travel as their five components only (not derived properties such as {@code isZero}). */
    @JsonAutoDetect(
            isGetterVisibility = JsonAutoDetect.Visibility.NONE)
    private abstract static class ResourcesMixin {
    }

    private ProtocolJson() {
    }

    /** The mapper, configured for the protocol; shared and thread-safe. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static byte[] write(Message message) {
        return writeValue(message);
    }

    /** Any protocol value (a node or broker message) as JSON bytes. */
    public static byte[] writeValue(Object message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        writeValue(message, out);
        return out.toByteArray();
    }

    /**
     * Writes any protocol value as JSON to {@code out} (left open): heartbeats and their replies by
     * hand ({@link HeartbeatWriter}, the same bytes), anything else by data binding.
     */
    public static void writeValue(Object message, OutputStream out) {
        try (JsonGenerator generator = MAPPER.createGenerator(out)) {
            generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            if (!HeartbeatWriter.write(message, generator)) {
                MAPPER.writeValue(generator, message);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Message read(byte[] body) throws ProtocolException {
        return read(body, Message.class);
    }

    /** A message of the protocol whose messages are subtypes of {@code root}. */
    public static <T> T read(byte[] body, Class<T> root) throws ProtocolException {
        if (root.isAssignableFrom(NodeHeartbeat.class)) {
            NodeHeartbeat heartbeat = HeartbeatReader.readHeartbeat(MAPPER.getFactory(), body);
            if (heartbeat != null) {
                return root.cast(heartbeat);
            }
        }
        return bind(body, root);
    }

    /** {@link #read} by data binding alone: every form, and the errors that name the field. */
    static <T> T bind(byte[] body, Class<T> root) throws ProtocolException {
        try {
            return MAPPER.readValue(body, root);
        } catch (InvalidTypeIdException e) {
            String type = e.getTypeId();
            throw new ProtocolException(type == null ? ErrorCode.INVALID_MESSAGE : ErrorCode.UNKNOWN_MESSAGE_TYPE,
                    type == null ? "the message has no 'type'"
                            : "unknown message type '" + Checks.printable(type, 64) + "' (expected one of: "
                                    + typeNames(root) + ")");
        } catch (UnrecognizedPropertyException e) {
            throw new ProtocolException(ErrorCode.INVALID_MESSAGE, "unknown field '" + Checks.printable(e.getPropertyName(), 64)
                    + "' at " + Checks.printable(path(e), 256));
        } catch (JsonMappingException e) {
            Throwable cause = e.getCause();
            String why = cause instanceof IllegalArgumentException ? cause.getMessage()
                    : cause instanceof StreamConstraintsException limit ? limit.getOriginalMessage()
                    : e.getOriginalMessage();
            throw new ProtocolException(ErrorCode.INVALID_MESSAGE, "invalid message at " + Checks.printable(path(e), 256) + ": "
                    + Checks.printable(firstLine(why), 512));
        } catch (JsonProcessingException e) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "the body is not JSON: " + firstLine(e.getOriginalMessage())
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")"));
        } catch (IOException e) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "cannot read the body: " + e.getMessage());
        } catch (StackOverflowError e) {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "the body nests too deep");
        }
    }

    private static String typeNames(Class<?> root) {
        JsonSubTypes types =
                root.getAnnotation(JsonSubTypes.class);
        if (types == null) {
            return "?";
        }
        return Arrays.stream(types.value()).map(JsonSubTypes.Type::name)
                .collect(Collectors.joining(", "));
    }

    private static String path(JsonMappingException e) {
        String path = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
        return path.isEmpty() ? "the top" : "'" + path + "'";
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
