package io.grove.config.sim;

import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.config.spec.GangTopologyReader;
import io.grove.config.yaml.MapReader;
import io.grove.config.yaml.Problems;
import io.grove.config.yaml.YamlDocument;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.OperationType;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.pool.ProblemCode;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.sim.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a simulator workload (see {@code docs/simulate.md}): node groups, operation groups, the
 * periods, and timed events. Config changes name a pools file relative to the workload file.
 */
public final class WorkloadLoader {

    private WorkloadLoader() {
    }

    public static LoadResult<Workload> load(Path file) {
        try {
            return load(Files.readString(file, StandardCharsets.UTF_8), file.toString(), file.toAbsolutePath().getParent());
        } catch (IOException e) {
            return LoadResult.unreadable(file, e);
        }
    }

    /**
     * @param directory where config changes' files are looked up
     */
    public static LoadResult<Workload> load(String text, String source, Path directory) {
        Problems problems = new Problems();
        Workload workload = YamlDocument.parse(text, problems).map(top -> read(top, problems, directory)).orElse(null);
        return new LoadResult<>(problems.isEmpty() ? workload : null, problems.list(), source);
    }

    private static Workload read(MapReader top, Problems problems, Path directory) {
        Duration heartbeat = top.duration("heartbeat_period");
        Duration update = top.duration("fair_share_update_period");
        List<Workload.NodeGroup> nodes = new ArrayList<>();
        Set<String> nodeIds = new LinkedHashSet<>();
        for (MapReader group : top.mapList("nodes")) {
            Workload.NodeGroup read = node(group, problems);
            if (read != null) {
                nodes.add(read);
                for (int i = 1; i <= read.count(); i++) {
                    nodeIds.add(read.name() + "-" + i);
                }
            }
            group.finish();
        }
        if (nodes.isEmpty()) {
            problems.add("", "nodes", ProblemCode.MISSING_KEY, "a workload needs at least one node group", top.line());
        }
        List<Workload.OperationGroup> operations = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (MapReader group : top.mapList("operations")) {
            Workload.OperationGroup read = operation(group, problems);
            if (read != null && !names.add(read.name())) {
                problems.add(group.path(), "name", ProblemCode.DUPLICATE_POOL_NAME,
                        "operation group name '" + read.name() + "' is used twice", group.line());
            } else if (read != null) {
                operations.add(read);
            }
            group.finish();
        }
        List<Workload.TimedEvent> events = new ArrayList<>();
        for (MapReader event : top.mapList("events")) {
            Workload.TimedEvent read = event(event, problems, directory, nodeIds);
            if (read != null) {
                events.add(read);
            }
            event.finish();
        }
        top.finish();
        if (!problems.isEmpty()) {
            return null;
        }
        try {
            return new Workload(heartbeat == null ? Duration.ofSeconds(1) : heartbeat,
                    update == null ? Duration.ofMillis(200) : update, nodes, operations, events);
        } catch (IllegalArgumentException e) {
            problems.add("", null, ProblemCode.BAD_VALUE, e.getMessage(), top.line());
            return null;
        }
    }

    private static Workload.NodeGroup node(MapReader group, Problems problems) {
        String name = group.string("name");
        Integer count = group.integer("count");
        PartialResources resources = group.resources("resources");
        List<String> tags = group.strings("tags");
        Map<String, String> where = group.stringMap("topology");
        NodeTopology topology = NodeTopology.NONE;
        if (where != null) {
            try {
                topology = new NodeTopology(where);
            } catch (IllegalArgumentException e) {
                problems.add(group.path(), "topology", ProblemCode.BAD_VALUE, e.getMessage(), group.line());
            }
        }
        if (name == null || resources == null) {
            problems.add(group.path(), name == null ? "name" : "resources", ProblemCode.MISSING_KEY,
                    "a node group needs 'name' and 'resources'", group.line());
            return null;
        }
        int n = count == null ? 1 : count;
        if (n < 1) {
            problems.add(group.path(), "count", ProblemCode.BAD_VALUE, "count must be at least 1, got " + n, group.line());
            return null;
        }
        Resources limits = resources.orElse(0);
        if (!resources.isSet(ResourceType.USER_SLOTS)) {
            limits = limits.with(ResourceType.USER_SLOTS, Math.max(1, Math.floor(limits.cpu())));
        }
        return new Workload.NodeGroup(name, n, limits, tags == null ? Set.of() : Set.copyOf(tags), topology);
    }

    private static Workload.OperationGroup operation(MapReader group, Problems problems) {
        String name = group.string("name");
        Integer count = group.integer("count");
        Duration at = group.duration("at");
        String pool = group.string("pool");
        String tree = group.string("tree");
        String user = group.string("user");
        Integer jobs = group.integer("jobs");
        PartialResources job = group.resources("job");
        boolean forever = "forever".equals(group.rawScalar("duration"));
        Duration duration = forever ? null : group.duration("duration");
        if (forever) {
            group.string("duration");
        }
        Double weight = group.number("weight");
        OperationType type = group.enumValue("type", OperationType.class);
        Duration checkpointEvery = group.duration("checkpoint_every");
        Boolean gang = group.bool("is_gang");
        GangTopology topology = GangTopologyReader.read(group, gang != null && gang);
        if (name == null || jobs == null || job == null) {
            problems.add(group.path(), name == null ? "name" : jobs == null ? "jobs" : "job", ProblemCode.MISSING_KEY,
                    "an operation group needs 'name', 'jobs' and 'job'", group.line());
            return null;
        }
        if (!forever && duration == null) {
            problems.add(group.path(), "duration", ProblemCode.MISSING_KEY,
                    "give the jobs' 'duration' (for example 60s) or 'forever'", group.line());
            return null;
        }
        try {
            return new Workload.OperationGroup(name, count == null ? 1 : count, at == null ? Duration.ZERO : at, pool,
                    tree, user == null ? "user" : user, jobs, job.orElse(0).with(ResourceType.USER_SLOTS, 1), duration,
                    weight == null ? 1.0 : weight, type, gang != null && gang ? topology : null, checkpointEvery);
        } catch (IllegalArgumentException e) {
            problems.add(group.path(), null, ProblemCode.BAD_VALUE, e.getMessage(), group.line());
            return null;
        }
    }

    private static Workload.TimedEvent event(MapReader event, Problems problems, Path directory, Set<String> nodeIds) {
        Duration at = event.duration("at");
        List<String> lost = event.strings("node_loss");
        List<String> back = event.strings("node_return");
        String config = event.string("config_change");
        int kinds = (lost != null ? 1 : 0) + (back != null ? 1 : 0) + (config != null ? 1 : 0);
        if (at == null || kinds != 1) {
            problems.add(event.path(), at == null ? "at" : null, ProblemCode.MISSING_KEY,
                    "an event needs 'at' and one of 'node_loss', 'node_return', 'config_change'", event.line());
            return null;
        }
        for (List<String> ids : Arrays.asList(lost, back)) {
            if (ids != null) {
                for (String id : ids) {
                    if (!nodeIds.contains(id)) {
                        problems.add(event.path(), lost == ids ? "node_loss" : "node_return", ProblemCode.BAD_VALUE,
                                "no node '" + id + "' (nodes are <group>-<n>, e.g. " + nodeIds.iterator().next() + ")",
                                event.line());
                    }
                }
            }
        }
        if (lost != null) {
            return new Workload.NodeLoss(at, lost);
        }
        if (back != null) {
            return new Workload.NodeReturn(at, back);
        }
        Path file = directory == null ? Path.of(config) : directory.resolve(config);
        LoadResult<PoolsConfig> pools = PoolsConfigLoader.load(file);
        if (!pools.ok()) {
            problems.add(event.path(), "config_change", ProblemCode.BAD_VALUE,
                    "the pools file " + file + " is invalid:\n" + pools.describe(), event.line());
            return null;
        }
        return new Workload.ConfigChange(at, pools.value());
    }
}
