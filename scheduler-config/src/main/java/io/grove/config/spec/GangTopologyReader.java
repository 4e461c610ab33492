package io.grove.config.spec;

import io.grove.config.yaml.MapReader;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.SpecBounds;
import io.grove.core.pool.ProblemCode;

/** A gang's {@code topology} key, as specs and simulator workloads write it. */
public final class GangTopologyReader {

    private GangTopologyReader() {
    }

    /**
     * {@code topology: {required: rack}} or {@code {preferred: rack}}: exactly one of the two, a
     * level name, on a gang only (the tree's levels are checked at submit, where the tree is known).
     */
    public static GangTopology read(MapReader top, boolean gang) {
        MapReader map = top.map("topology");
        if (map == null) {
            return GangTopology.NONE;
        }
        String required = name(map, "required");
        String preferred = name(map, "preferred");
        map.finish();
        if ((required == null) == (preferred == null)) {
            top.problem("topology", ProblemCode.BAD_VALUE, "give one of required: LEVEL or preferred: LEVEL, e.g. "
                    + "{required: rack}");
            return GangTopology.NONE;
        }
        String level = required != null ? required : preferred;
        if (!NodeTopology.LEVEL.matcher(level).matches()) {
            top.problem("topology", ProblemCode.BAD_VALUE, "'" + level + "' is not a topology level name ("
                    + NodeTopology.LEVEL.pattern() + ")");
            return GangTopology.NONE;
        }
        if (!gang) {
            top.problem("topology", ProblemCode.BAD_VALUE, "topology places the ranks of a gang: set is_gang: true");
            return GangTopology.NONE;
        }
        return new GangTopology(level, required != null);
    }

    private static String name(MapReader map, String key) {
        String value = map.string(key);
        if (value != null && value.length() > SpecBounds.MAX_NAME) {
            map.problem(key, ProblemCode.BAD_VALUE, "is " + value.length() + " characters long, above the "
                    + SpecBounds.MAX_NAME + " allowed");
            return null;
        }
        return value;
    }
}
