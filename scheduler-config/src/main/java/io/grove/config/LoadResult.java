package io.grove.config;

import io.grove.core.pool.ConfigProblem;
import io.grove.core.pool.ProblemCode;
import java.io.IOException;
import java.nio.file.Path;
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

    /** The result for a file that could not be read. */
    public static <T> LoadResult<T> unreadable(Path file, IOException error) {
        return new LoadResult<>(null, List.of(new ConfigProblem("", null, ProblemCode.YAML_SYNTAX,
                "cannot read the file: " + error.getMessage())), file.toString());
    }

    public boolean ok() {
        return problems.isEmpty();
    }

    /** One problem per line, each with file, line, pool path and reason. */
    public String describe() {
        return problems.stream().map(p -> p.describe(source)).collect(Collectors.joining("\n"));
    }
}
