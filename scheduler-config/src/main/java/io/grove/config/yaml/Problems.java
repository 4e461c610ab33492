package io.grove.config.yaml;

import io.grove.core.pool.ConfigProblem;
import io.grove.core.pool.ProblemCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects problems while a document is read, and remembers the line of every pool and attribute
 * so that problems found later (by validation) can be placed.
 */
public final class Problems {

    private final List<ConfigProblem> problems = new ArrayList<>();
    private final Map<String, Integer> lines = new HashMap<>();

    public void add(String path, String attribute, ProblemCode code, String message, int line) {
        problems.add(new ConfigProblem(path, attribute, code, message, line));
    }

    /** Records where {@code path} (and optionally its attribute) is written. */
    public void rememberLine(String path, String attribute, int line) {
        lines.putIfAbsent(key(path, attribute), line);
    }

    /** The line of an attribute, else of its pool, else 0. */
    public int lineOf(String path, String attribute) {
        Integer line = attribute == null ? null : lines.get(key(path, attribute));
        if (line == null && attribute != null && attribute.contains(".")) {
            line = lines.get(key(path, attribute.substring(0, attribute.indexOf('.'))));
        }
        if (line == null) {
            line = lines.get(key(path, null));
        }
        return line == null ? 0 : line;
    }

    /** Adds problems found elsewhere, placing each at its line. */
    public void addAll(List<ConfigProblem> found) {
        for (ConfigProblem problem : found) {
            problems.add(problem.line() > 0 ? problem : problem.atLine(lineOf(problem.path(), problem.attribute())));
        }
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    public List<ConfigProblem> list() {
        List<ConfigProblem> sorted = new ArrayList<>(problems);
        sorted.sort((a, b) -> Integer.compare(a.line() == 0 ? Integer.MAX_VALUE : a.line(),
                b.line() == 0 ? Integer.MAX_VALUE : b.line()));
        return List.copyOf(sorted);
    }

    private static String key(String path, String attribute) {
        return attribute == null ? path : path + "#" + attribute;
    }
}
