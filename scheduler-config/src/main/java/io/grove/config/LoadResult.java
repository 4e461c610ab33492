package io.grove.config;

import io.grove.core.pool.ConfigProblem;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The outcome of loading a document: the value when there are no problems, else every problem.
 *
 * @param value the loaded value, {@code null} when {@code problems} is not empty
 * @param problems every problem found, in line order
 * @param source the file name used in messages
 */
public record LoadResult<T>(T value, List<ConfigProblem> problems, String source) {

    public LoadResult {
        problems = List.copyOf(problems);
    }

    public boolean ok() {
        return problems.isEmpty();
    }

    /** One problem per line, each with file, line, pool path and reason. */
    public String describe() {
        return problems.stream().map(p -> p.describe(source)).collect(Collectors.joining("\n"));
    }
}
