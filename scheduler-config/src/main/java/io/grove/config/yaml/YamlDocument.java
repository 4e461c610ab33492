package io.grove.config.yaml;

import io.grove.core.pool.ProblemCode;
import java.io.StringReader;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** Parses text (YAML, or JSON which is YAML) into a node tree that keeps lines. */
public final class YamlDocument {

    /** Refuse documents larger than this many bytes of text. */
    public static final int MAX_DOCUMENT_CHARS = 16 * 1024 * 1024;

    private YamlDocument() {
    }

    /**
     * Parses a document whose top level must be a mapping.
     *
     * @return the top-level reader, or empty with the syntax problem added
     */
    public static Optional<MapReader> parse(String text, Problems problems) {
        if (text.length() > MAX_DOCUMENT_CHARS) {
            problems.add("", null, ProblemCode.YAML_SYNTAX, "document is " + text.length()
                    + " characters long (expected: <= " + MAX_DOCUMENT_CHARS + ")", 0);
            return Optional.empty();
        }
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(50);
        options.setCodePointLimit(MAX_DOCUMENT_CHARS);
        Node root;
        try {
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String message = e.getProblem() != null ? e.getProblem() : e.getMessage();
            if (e.getContext() != null) {
                message = e.getContext() + ": " + message;
            }
            problems.add("", null, ProblemCode.YAML_SYNTAX, "not valid YAML: " + message.trim(),
                    mark == null ? 0 : mark.getLine() + 1);
            return Optional.empty();
        } catch (YAMLException e) {
            problems.add("", null, ProblemCode.YAML_SYNTAX, "not valid YAML: " + e.getMessage(), 0);
            return Optional.empty();
        }
        if (root != null && !wellFormed(root, problems)) {
            return Optional.empty();
        }
        if (root == null) {
            problems.add("", null, ProblemCode.YAML_SYNTAX, "the document is empty", 1);
            return Optional.empty();
        }
        if (!(root instanceof MappingNode mapping)) {
            problems.add("", null, ProblemCode.WRONG_TYPE, "the document must be a mapping of keys to values",
                    MapReader.line(root));
            return Optional.empty();
        }
        return Optional.of(new MapReader(mapping, "", problems));
    }

    /**
     * Whether no mapping holds a key twice (the last would silently win, an ACL could vanish) and
     * no alias refers to a node that contains it (a recursive document, which would never end
     * being read); each is a problem. Nodes already checked are not walked again, so shared
     * aliases cost nothing; the walk stops at the first cycle.
     */
    private static boolean wellFormed(Node root, Problems problems) {
        int before = problems.list().size();
        boolean acyclic = walk(root, "", Collections.newSetFromMap(new IdentityHashMap<>()),
                Collections.newSetFromMap(new IdentityHashMap<>()), problems);
        return acyclic && problems.list().size() == before;
    }

    /** False at a cycle; duplicate keys are added to {@code problems} and the walk goes on. */
    private static boolean walk(Node node, String keys, Set<Node> path, Set<Node> checked, Problems problems) {
        if (checked.contains(node)) {
            return true;
        }
        if (!path.add(node)) {
            problems.add("", keys.isEmpty() ? null : keys, ProblemCode.RECURSIVE_ALIAS, "an alias refers to a node that "
                    + "contains it (the anchor at line " + MapReader.line(node) + "): the document would never end",
                    MapReader.line(node));
            return false;
        }
        if (node instanceof MappingNode mapping) {
            Map<String, Node> seen = new HashMap<>();
            for (NodeTuple tuple : mapping.getValue()) {
                String name = tuple.getKeyNode() instanceof ScalarNode scalar ? scalar.getValue() : null;
                String at = name == null ? keys : keys.isEmpty() ? name : keys + "." + name;
                Node earlier = name == null ? null : seen.putIfAbsent(name, tuple.getKeyNode());
                if (earlier != null) {
                    problems.add("", at, ProblemCode.DUPLICATE_KEY, "key '" + name + "' appears twice in one mapping "
                            + "(lines " + MapReader.line(earlier) + " and " + MapReader.line(tuple.getKeyNode())
                            + "); the second would silently replace the first", MapReader.line(tuple.getKeyNode()));
                }
                if (!walk(tuple.getKeyNode(), at, path, checked, problems)
                        || !walk(tuple.getValueNode(), at, path, checked, problems)) {
                    return false;
                }
            }
        } else if (node instanceof SequenceNode sequence) {
            int index = 0;
            for (Node item : sequence.getValue()) {
                if (!walk(item, keys + "[" + index++ + "]", path, checked, problems)) {
                    return false;
                }
            }
        }
        path.remove(node);
        checked.add(node);
        return true;
    }
}
