package io.grove.config.whatif;

import io.grove.config.LoadResult;
import io.grove.config.TreeConfigReader;
import io.grove.config.yaml.MapReader;
import io.grove.config.yaml.Problems;
import io.grove.config.yaml.YamlDocument;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.IntegralState;
import io.grove.core.fairshare.OperationDemand;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolTreeValidator;
import io.grove.core.pool.ProblemCode;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a what-if snapshot (YAML or JSON) into a {@link FairShareInput}, reporting every problem. */
public final class SnapshotLoader {

    private SnapshotLoader() {
    }

    public static LoadResult<FairShareInput> load(Path file) {
        try {
            return load(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            return LoadResult.unreadable(file, e);
        }
    }

    public static LoadResult<FairShareInput> load(String text, String source) {
        Problems problems = new Problems();
        FairShareInput input = YamlDocument.parse(text, problems).map(top -> read(top, problems)).orElse(null);
        return new LoadResult<>(problems.isEmpty() ? input : null, problems.list(), source);
    }

    private static FairShareInput read(MapReader top, Problems problems) {
        MapReader treeReader = top.map("tree");
        PoolTreeConfig tree = null;
        Resources total = null;
        if (treeReader == null) {
            problems.add("", "tree", ProblemCode.MISSING_KEY, "a snapshot needs a 'tree'", top.line());
        } else {
            String name = treeReader.string("name");
            PartialResources totalSpec = treeReader.resources("total_resources");
            if (totalSpec == null) {
                problems.add("", "tree.total_resources", ProblemCode.MISSING_KEY,
                        "the tree needs 'total_resources', the sum of its nodes' resources", treeReader.line());
            } else {
                total = totalSpec.orElse(0);
            }
            tree = TreeConfigReader.read(name == null ? "what-if" : name, treeReader);
            treeReader.finish();
        }
        List<OperationDemand> operations = readOperations(top.mapList("operations"), problems);
        Map<String, IntegralState> state = readIntegralState(top.map("integral_state"));
        Double elapsed = top.number("elapsed_seconds");
        if (elapsed != null && !(elapsed >= 0)) {
            problems.add("", "elapsed_seconds", ProblemCode.BAD_VALUE, "must not be negative, got " + elapsed,
                    problems.lineOf("", "elapsed_seconds"));
            elapsed = null;
        }
        top.finish();
        if (tree == null || !problems.isEmpty()) {
            return null;
        }
        problems.addAll(PoolTreeValidator.validate(tree));
        if (!problems.isEmpty()) {
            return null;
        }
        checkReferences(PoolTree.of(tree), operations, state, problems);
        return problems.isEmpty() ? new FairShareInput(tree, total, operations, state, elapsed) : null;
    }

    private static List<OperationDemand> readOperations(List<MapReader> readers, Problems problems) {
        List<OperationDemand> operations = new ArrayList<>();
        for (MapReader op : readers) {
            String id = op.string("id");
            String pool = op.string("pool");
            Double weight = op.number("weight");
            PartialResources demand = op.resources("demand");
            PartialResources usage = op.resources("usage");
            PartialResources limits = op.resources("resource_limits");
            Boolean gang = op.bool("gang");
            String start = op.string("start_time");
            Integer pending = op.integer("pending_job_count");
            MapReader bestShare = op.map("best_allocation_share");
            ShareVector best = bestShare == null ? null : readShare(bestShare);
            op.finish();
            if (id == null) {
                problems.add(op.path(), "id", ProblemCode.MISSING_KEY, "an operation needs an 'id'", op.line());
                continue;
            }
            if (pool == null) {
                problems.add(op.path(), "pool", ProblemCode.MISSING_KEY, "operation " + id + " needs a 'pool'", op.line());
                continue;
            }
            if (demand == null) {
                problems.add(op.path(), "demand", ProblemCode.MISSING_KEY, "operation " + id + " needs a 'demand'", op.line());
                continue;
            }
            Instant startTime = null;
            if (start != null) {
                try {
                    startTime = Instant.parse(start);
                } catch (DateTimeParseException e) {
                    problems.add(op.path(), "start_time", ProblemCode.BAD_VALUE,
                            "'" + start + "' is not an ISO-8601 instant such as 2026-01-01T00:00:00Z",
                            problems.lineOf(op.path(), "start_time"));
                }
            }
            try {
                operations.add(new OperationDemand(id, pool, weight == null ? 1.0 : weight, demand.orElse(0),
                        usage == null ? Resources.ZERO : usage.orElse(0), limits == null ? null : limits.asLimits(),
                        best, gang != null && gang, startTime, pending == null ? 0 : pending));
            } catch (IllegalArgumentException e) {
                problems.add(op.path(), null, ProblemCode.BAD_VALUE, e.getMessage(), op.line());
            }
        }
        return operations;
    }

    private static ShareVector readShare(MapReader reader) {
        double[] values = new double[ResourceType.COUNT];
        for (ResourceType type : ResourceType.values()) {
            Double value = reader.number(type.key());
            values[type.ordinal()] = value == null ? 1.0 : value;
        }
        reader.finish();
        return ShareVector.of(values);
    }

    private static Map<String, IntegralState> readIntegralState(MapReader reader) {
        Map<String, IntegralState> state = new LinkedHashMap<>();
        if (reader == null) {
            return state;
        }
        for (Map.Entry<String, MapReader> entry : reader.namedMapsOfSelf().entrySet()) {
            MapReader poolState = entry.getValue();
            Resources volume = readVolume(poolState);
            Double last = poolState.number("last_share_ratio");
            poolState.finish();
            state.put(entry.getKey(), new IntegralState(volume, last == null || last < 0 ? 0.0 : last));
        }
        return state;
    }

    /**
     * A bucket's volume: resource-seconds of each resource, plain numbers as an update prints them
     * (not amounts of a resource: any number of decimals, no units), at least 0; absent ones 0.
     */
    private static Resources readVolume(MapReader poolState) {
        MapReader volume = poolState.map("accumulated_volume");
        double[] values = new double[ResourceType.values().length];
        if (volume == null) {
            return Resources.ZERO;
        }
        for (ResourceType type : ResourceType.values()) {
            Double value = volume.number(type.key());
            if (value != null && (!Double.isFinite(value) || value < 0)) {
                volume.problem(type.key(), ProblemCode.BAD_VALUE, "a volume is a finite number of resource-seconds, "
                        + "at least 0, got " + value);
            } else if (value != null) {
                values[type.ordinal()] = value;
            }
        }
        volume.finish();
        return Resources.of(values);
    }

    private static void checkReferences(PoolTree tree, List<OperationDemand> operations,
            Map<String, IntegralState> state, Problems problems) {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < operations.size(); i++) {
            OperationDemand op = operations.get(i);
            String path = "operations[" + i + "]";
            if (!tree.contains(op.pool())) {
                problems.add(path, "pool", ProblemCode.BAD_VALUE, "operation " + op.id() + " is in pool '" + op.pool()
                        + "', which is not in the tree", problems.lineOf(path, "pool"));
            }
            if (!ids.add(op.id())) {
                problems.add(path, "id", ProblemCode.BAD_VALUE, "operation id '" + op.id() + "' is used twice",
                        problems.lineOf(path, "id"));
            } else if (tree.contains(op.id())) {
                problems.add(path, "id", ProblemCode.BAD_VALUE, "operation id '" + op.id()
                        + "' is also a pool name; ids and pool names must differ", problems.lineOf(path, "id"));
            }
        }
        for (String pool : state.keySet()) {
            boolean integral = tree.pool(pool).map(n -> n.config().integralGuarantees().isIntegral()).orElse(false);
            if (!integral) {
                problems.add("integral_state/" + pool, null, ProblemCode.BAD_VALUE,
                        "integral state is given for '" + pool + "', which is not an integral pool of the tree",
                        problems.lineOf("integral_state/" + pool, null));
            }
        }
    }
}
