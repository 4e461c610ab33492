package io.grove.config.yaml;

import io.grove.core.pool.PartialResources;
import io.grove.core.pool.ProblemCode;
import io.grove.core.resource.ResourceAmounts;
import io.grove.core.resource.ResourceType;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Strict reader of one YAML mapping. Every key read is remembered as known; {@link #finish()}
 * reports the others as unknown. Wrong types and bad values become problems with the key's line,
 * never exceptions, so that a whole document is checked in one pass.
 */
public final class MapReader {

    private final MappingNode node;
    private final String path;
    private final String prefix;
    private final Problems problems;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
    private final Set<String> known = new LinkedHashSet<>();

    MapReader(MappingNode node, String path, Problems problems) {
        this(node, path, "", problems);
    }

    private MapReader(MappingNode node, String path, String prefix, Problems problems) {
        this.node = node;
        this.path = path;
        this.prefix = prefix;
        this.problems = problems;
        for (NodeTuple tuple : node.getValue()) {
            Node key = tuple.getKeyNode();
            if (key instanceof ScalarNode scalar && scalar.getTag() != Tag.NULL) {
                entries.put(scalar.getValue(), tuple);
                problems.rememberLine(path, attribute(scalar.getValue()), line(key));
            } else {
                problems.add(path, prefix.isEmpty() ? null : prefix, ProblemCode.WRONG_TYPE,
                        "keys must be plain strings", line(key));
            }
        }
    }

    /** 1-based line of a node. */
    public static int line(Node node) {
        return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    public int line() {
        return line(node);
    }

    public String path() {
        return path;
    }

    public Problems problems() {
        return problems;
    }

    private String attribute(String key) {
        return prefix.isEmpty() ? key : prefix + "." + key;
    }

    /** Marks a key (and its aliases) as known and returns the value of whichever is present. */
    private NodeTuple take(String key, String... aliases) {
        known.add(key);
        NodeTuple found = entries.get(key);
        for (String alias : aliases) {
            known.add(alias);
            NodeTuple other = entries.get(alias);
            if (other != null) {
                if (found != null) {
                    problem(key, ProblemCode.BAD_VALUE, "both '" + key + "' and its alias '" + alias + "' are set",
                            other.getKeyNode());
                } else {
                    found = other;
                }
            }
        }
        if (found != null && found.getValueNode() instanceof ScalarNode scalar && scalar.getTag() == Tag.NULL) {
            return null;
        }
        return found;
    }

    /** The text of a scalar value without interpreting it, or {@code null}. */
    public String rawScalar(String key) {
        NodeTuple tuple = entries.get(key);
        return tuple != null && tuple.getValueNode() instanceof ScalarNode scalar ? scalar.getValue() : null;
    }

    public boolean has(String key) {
        return entries.containsKey(key);
    }

    public void problem(String key, ProblemCode code, String message, Node at) {
        problems.add(path, key == null ? (prefix.isEmpty() ? null : prefix) : attribute(key), code, message, line(at));
    }

    /** A problem at {@code key}'s line (or this mapping's, when the key is absent). */
    public void problem(String key, ProblemCode code, String message) {
        NodeTuple tuple = entries.get(key);
        problems.add(path, key == null ? (prefix.isEmpty() ? null : prefix) : attribute(key), code, message,
                tuple == null ? line() : line(tuple.getKeyNode()));
    }

    private ScalarNode scalar(String key, NodeTuple tuple, String expected) {
        if (tuple.getValueNode() instanceof ScalarNode scalar) {
            return scalar;
        }
        problem(key, ProblemCode.WRONG_TYPE, "expected " + expected + ", got a " + kind(tuple.getValueNode()),
                tuple.getValueNode());
        return null;
    }

    private static String kind(Node node) {
        if (node instanceof MappingNode) {
            return "mapping";
        }
        if (node instanceof SequenceNode) {
            return "list";
        }
        return "value";
    }

    public String string(String key, String... aliases) {
        NodeTuple tuple = take(key, aliases);
        if (tuple == null) {
            return null;
        }
        ScalarNode scalar = scalar(key, tuple, "a string");
        return scalar == null ? null : scalar.getValue();
    }

    public Double number(String key, String... aliases) {
        return scalar(key, aliases, "a number", scalar -> scalar.getTag() == Tag.INT || scalar.getTag() == Tag.FLOAT
                ? Double.parseDouble(scalar.getValue().replace("_", "")) : null);
    }

    public Integer integer(String key, String... aliases) {
        return scalar(key, aliases, "a whole number", scalar -> scalar.getTag() == Tag.INT
                ? Integer.parseInt(scalar.getValue().replace("_", "")) : null);
    }

    public Boolean bool(String key, String... aliases) {
        return scalar(key, aliases, "true or false", scalar -> {
            if (scalar.getTag() != Tag.BOOL) {
                return null;
            }
            String v = scalar.getValue().toLowerCase(Locale.ROOT);
            return v.equals("true") || v.equals("yes") || v.equals("on") || v.equals("y");
        });
    }

    /**
     * A scalar value converted by {@code parse}, which returns {@code null} (or throws
     * {@link NumberFormatException}) when the value is not {@code expected}.
     */
    private <T> T scalar(String key, String[] aliases, String expected, Function<ScalarNode, T> parse) {
        NodeTuple tuple = take(key, aliases);
        if (tuple == null) {
            return null;
        }
        ScalarNode scalar = scalar(key, tuple, expected);
        if (scalar == null) {
            return null;
        }
        try {
            T value = parse.apply(scalar);
            if (value != null) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problem(key, ProblemCode.WRONG_TYPE, "expected " + expected + ", got '" + scalar.getValue() + "'", scalar);
        return null;
    }

    public Duration duration(String key, String... aliases) {
        NodeTuple tuple = take(key, aliases);
        if (tuple == null) {
            return null;
        }
        ScalarNode scalar = scalar(key, tuple, "a duration such as 30s");
        if (scalar == null) {
            return null;
        }
        try {
            return Durations.parse(scalar.getValue());
        } catch (IllegalArgumentException e) {
            problem(key, ProblemCode.BAD_VALUE, e.getMessage(), scalar);
            return null;
        }
    }

    /** An enum value written in snake_case. */
    public <E extends Enum<E>> E enumValue(String key, Class<E> type) {
        String text = string(key);
        if (text == null) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(text)) {
                return constant;
            }
        }
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            names.add(constant.name().toLowerCase(Locale.ROOT));
        }
        problem(key, ProblemCode.BAD_VALUE, "'" + text + "' is not one of " + names, entries.get(key).getValueNode());
        return null;
    }

    /** A list of plain strings; {@code null} when the key is absent. */
    public List<String> strings(String key) {
        NodeTuple tuple = take(key);
        if (tuple == null) {
            return null;
        }
        if (!(tuple.getValueNode() instanceof SequenceNode sequence)) {
            problem(key, ProblemCode.WRONG_TYPE, "expected a list of strings", tuple.getValueNode());
            return null;
        }
        List<String> result = new ArrayList<>();
        for (Node item : sequence.getValue()) {
            if (item instanceof ScalarNode scalar && scalar.getTag() != Tag.NULL) {
                result.add(scalar.getValue());
            } else {
                problem(key, ProblemCode.WRONG_TYPE, "expected a string, got a " + kind(item), item);
            }
        }
        return result;
    }

    /** A list of snake_case enum values. */
    public <E extends Enum<E>> List<E> enumList(String key, Class<E> type, Map<String, E> aliases) {
        NodeTuple tuple = take(key);
        if (tuple == null) {
            return null;
        }
        if (!(tuple.getValueNode() instanceof SequenceNode sequence)) {
            problem(key, ProblemCode.WRONG_TYPE, "expected a list", tuple.getValueNode());
            return null;
        }
        List<E> result = new ArrayList<>();
        for (Node item : sequence.getValue()) {
            E value = null;
            if (item instanceof ScalarNode scalar) {
                value = aliases.get(scalar.getValue());
                for (E constant : type.getEnumConstants()) {
                    if (constant.name().equalsIgnoreCase(scalar.getValue())) {
                        value = constant;
                    }
                }
            }
            if (value == null) {
                problem(key, ProblemCode.BAD_VALUE, "unknown value " + (item instanceof ScalarNode s ? "'" + s.getValue() + "'" : "")
                        + " in " + key, item);
            } else {
                result.add(value);
            }
        }
        return result;
    }

    /** A mapping of resource names to amounts, units allowed for memory. */
    public PartialResources resources(String key, String... aliases) {
        NodeTuple tuple = take(key, aliases);
        if (tuple == null) {
            return null;
        }
        if (!(tuple.getValueNode() instanceof MappingNode mapping)) {
            problem(key, ProblemCode.WRONG_TYPE, "expected a mapping of resources such as {cpu: 4, memory: 8Gi}",
                    tuple.getValueNode());
            return null;
        }
        MapReader reader = new MapReader(mapping, path, attribute(key), problems);
        Map<ResourceType, Double> values = new EnumMap<>(ResourceType.class);
        for (ResourceType type : ResourceType.values()) {
            NodeTuple entry = type == ResourceType.MEMORY ? reader.take(type.key(), "user_memory") : reader.take(type.key());
            if (entry == null) {
                continue;
            }
            Node value = entry.getValueNode();
            if (!(value instanceof ScalarNode scalar)) {
                reader.problem(type.key(), ProblemCode.WRONG_TYPE, "expected an amount, got a " + kind(value), value);
                continue;
            }
            try {
                values.put(type, ResourceAmounts.parse(type, scalar.getTag() == Tag.INT || scalar.getTag() == Tag.FLOAT
                        ? new BigDecimal(scalar.getValue().replace("_", "")) : scalar.getValue()));
            } catch (IllegalArgumentException e) {
                // YAML 1.1 numbers that are no decimal: .nan, .inf, 0x1F, 12:30:00 (base 60)
                reader.problem(type.key(), ProblemCode.BAD_VALUE, e instanceof NumberFormatException
                        ? "expected a finite amount in decimal such as 4, 0.5 or 8Gi, got '" + scalar.getValue() + "'"
                        : e.getMessage(), value);
            }
        }
        reader.finish();
        return new PartialResources(values);
    }

    /** A mapping of strings to strings (environments); {@code null} if absent. */
    public Map<String, String> stringMap(String key) {
        NodeTuple tuple = take(key);
        if (tuple == null) {
            return null;
        }
        if (!(tuple.getValueNode() instanceof MappingNode mapping)) {
            problem(key, ProblemCode.WRONG_TYPE, "expected a mapping of names to strings", tuple.getValueNode());
            return null;
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (NodeTuple entry : mapping.getValue()) {
            if (entry.getKeyNode() instanceof ScalarNode name && entry.getValueNode() instanceof ScalarNode value
                    && value.getTag() != Tag.NULL) {
                result.put(name.getValue(), value.getValue());
            } else {
                problem(key, ProblemCode.WRONG_TYPE, "expected plain string names and values", entry.getKeyNode());
            }
        }
        return result;
    }

    /** A nested mapping read with the same pool path; {@code null} if absent. */
    public MapReader map(String key, String... aliases) {
        NodeTuple tuple = take(key, aliases);
        if (tuple == null) {
            return null;
        }
        if (!(tuple.getValueNode() instanceof MappingNode mapping)) {
            problem(key, ProblemCode.WRONG_TYPE, "expected a mapping, got a " + kind(tuple.getValueNode()),
                    tuple.getValueNode());
            return null;
        }
        return new MapReader(mapping, path, attribute(key), problems);
    }

    /**
     * A mapping of names to mappings (pools, trees): each entry read with the path extended by the
     * name. An empty value stands for an empty mapping.
     */
    public Map<String, MapReader> namedMaps(String key) {
        NodeTuple tuple = take(key);
        Map<String, MapReader> result = new LinkedHashMap<>();
        if (tuple == null) {
            return result;
        }
        if (!(tuple.getValueNode() instanceof MappingNode mapping)) {
            problem(key, ProblemCode.WRONG_TYPE, "expected a mapping of names to settings", tuple.getValueNode());
            return result;
        }
        for (NodeTuple entry : mapping.getValue()) {
            if (!(entry.getKeyNode() instanceof ScalarNode name)) {
                problem(key, ProblemCode.WRONG_TYPE, "names must be plain strings", entry.getKeyNode());
                continue;
            }
            String childPath = path.isEmpty() ? name.getValue() : path + "/" + name.getValue();
            problems.rememberLine(childPath, null, line(name));
            Node value = entry.getValueNode();
            if (value instanceof ScalarNode scalar && scalar.getTag() == Tag.NULL) {
                value = new MappingNode(Tag.MAP, false, new ArrayList<>(), name.getStartMark(), name.getEndMark(), DumperOptions.FlowStyle.AUTO);
            }
            if (!(value instanceof MappingNode childMapping)) {
                problems.add(childPath, null, ProblemCode.WRONG_TYPE,
                        "expected a mapping of settings, got a " + kind(value), line(value));
                continue;
            }
            result.put(name.getValue(), new MapReader(childMapping, childPath, problems));
        }
        return result;
    }

    /**
     * This mapping read as names to mappings (like {@link #namedMaps} one level up): every key is
     * known, and each value is read with the path extended by the key.
     */
    public Map<String, MapReader> namedMapsOfSelf() {
        Map<String, MapReader> result = new LinkedHashMap<>();
        for (Map.Entry<String, NodeTuple> entry : entries.entrySet()) {
            known.add(entry.getKey());
            String childPath = (prefix.isEmpty() ? path : prefix) + "/" + entry.getKey();
            problems.rememberLine(childPath, null, line(entry.getValue().getKeyNode()));
            Node value = entry.getValue().getValueNode();
            if (value instanceof MappingNode mapping) {
                result.put(entry.getKey(), new MapReader(mapping, childPath, problems));
            } else {
                problems.add(childPath, null, ProblemCode.WRONG_TYPE, "expected a mapping, got a " + kind(value), line(value));
            }
        }
        return result;
    }

    /** A list of mappings, each read with {@code path[index]}. */
    public List<MapReader> mapList(String key) {
        NodeTuple tuple = take(key);
        List<MapReader> result = new ArrayList<>();
        if (tuple == null) {
            return result;
        }
        if (!(tuple.getValueNode() instanceof SequenceNode sequence)) {
            problem(key, ProblemCode.WRONG_TYPE, "expected a list", tuple.getValueNode());
            return result;
        }
        int index = 0;
        for (Node item : sequence.getValue()) {
            String itemPath = key + "[" + index++ + "]";
            if (item instanceof MappingNode mapping) {
                problems.rememberLine(itemPath, null, line(item));
                result.add(new MapReader(mapping, itemPath, problems));
            } else {
                problems.add(itemPath, null, ProblemCode.WRONG_TYPE, "expected a mapping, got a " + kind(item), line(item));
            }
        }
        return result;
    }

    /** Reports every key that was never asked for. Call after reading all known keys. */
    public void finish() {
        for (Map.Entry<String, NodeTuple> entry : entries.entrySet()) {
            if (!known.contains(entry.getKey())) {
                String suggestion = Suggestions.closest(entry.getKey(), known);
                problem(entry.getKey(), ProblemCode.UNKNOWN_KEY, "unknown key '" + entry.getKey() + "'"
                        + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)"), entry.getValue().getKeyNode());
            }
        }
    }
}
