package io.grove.config.yaml;

import io.grove.core.pool.ProblemCode;
import java.io.StringReader;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

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
}
