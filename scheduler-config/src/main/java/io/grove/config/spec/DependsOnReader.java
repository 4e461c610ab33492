package io.grove.config.spec;

import io.grove.config.yaml.MapReader;
import io.grove.core.operation.Dependency;
import io.grove.core.operation.SpecBounds;
import io.grove.core.pool.ProblemCode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** An operation's {@code depends_on} key: the operations it waits for, as Slurm's {@code --dependency}. */
public final class DependsOnReader {

    /** An operation's id as the scheduler makes them ({@code op-17}), or any other name of at most 256 safe characters. */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private DependsOnReader() {
    }

    /**
     * {@code depends_on: [{operation: op-3, condition: completed}, {operation: op-4, condition: finished}]}:
     * each an operation's id, at most once, and {@code completed} (the default) or {@code finished};
     * at most {@link Dependency#MAX}. Whether the operations exist, and are the user's, is checked at
     * submit, where they are known.
     */
    public static List<Dependency> read(MapReader top) {
        List<Dependency> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (MapReader item : top.mapList("depends_on")) {
            String id = item.string("operation");
            Dependency.Condition condition = item.enumValue("condition", Dependency.Condition.class);
            if (id == null) {
                item.problem("operation", ProblemCode.MISSING_KEY, "name the operation to wait for, e.g. operation: op-3");
            } else if (id.length() > SpecBounds.MAX_NAME || !ID.matcher(id).matches()) {
                item.problem("operation", ProblemCode.BAD_VALUE, "'" + id.substring(0, Math.min(id.length(), 64))
                        + "' is not an operation id");
            } else if (!seen.add(id)) {
                item.problem("operation", ProblemCode.BAD_VALUE, "waits for " + id + " twice");
            } else {
                out.add(new Dependency(id, condition));
            }
            item.finish();
        }
        if (out.size() > Dependency.MAX) {
            top.problem("depends_on", ProblemCode.BAD_VALUE, "an operation may wait for at most " + Dependency.MAX
                    + " operations, got " + out.size());
            return List.of();
        }
        return out;
    }
}
