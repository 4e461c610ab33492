package io.grove.config;

import io.grove.core.pool.ConfigProblem;
import java.util.List;

/** A document that could not be loaded, with every problem found. */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<ConfigProblem> problems;

    public ConfigException(LoadResult<?> result) {
        super(result.problems().size() + " problem(s) in " + result.source() + ":\n" + result.describe());
        this.problems = result.problems();
    }

    public List<ConfigProblem> problems() {
        return problems;
    }
}
