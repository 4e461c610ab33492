package io.grove.cli;

import io.grove.api.Amounts;
import io.grove.api.NodeDrainRequest;
import io.grove.api.NodeView;
import io.grove.api.ReservationView;
import io.grove.api.TopologyView;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code grove nodes}: the cluster's nodes. */
@Command(name = "nodes", mixinStandardHelpOptions = true,
        description = {"Lists the nodes.", "", "The nodes: id, pool tree, tags, CPU and memory (used/offered), jobs, state, and the address of "
                + "the node's agent. A drained node's state says so.", "", "Examples:", "  grove nodes -o json",
                "  grove nodes drain node-7 --reason 'new disks'", "  grove nodes undrain node-7"},
        subcommands = {NodesCommand.Drain.class, NodesCommand.Undrain.class})
final class NodesCommand extends ClientCommand {

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        List<NodeView> nodes = scheduler.list("/nodes", NodeView.class);
        if (printer.data(nodes)) {
            return ExitCodes.OK;
        }
        // the topology column only where some node gives one or some tree knows levels
        boolean topology = nodes.stream().anyMatch(n -> n.topologyPath() != null
                || n.topology() != null && !n.topology().isEmpty());
        List<Table.Column> columns = new ArrayList<>(List.of(Table.text("NODE"), Table.text("TREE"), Table.text("TAGS"),
                Table.number("CPU"), Table.number("MEMORY"), Table.number("DISK FREE"), Table.number("JOBS"),
                Table.text("STATE"), Table.text("ADDRESS")));
        if (topology) {
            columns.add(Table.text("TOPOLOGY"));
        }
        // the reservation column only where a starving gang holds some node
        boolean reserved = nodes.stream().anyMatch(n -> n.reservedFor() != null);
        if (reserved) {
            columns.add(Table.text("RESERVED FOR"));
        }
        Table table = new Table(columns.toArray(new Table.Column[0]));
        List<NodeView> sorted = new ArrayList<>(nodes);
        sorted.sort(Comparator.comparing(NodeView::id));
        for (NodeView node : sorted) {
            Amounts limits = node.resourceLimits();
            Amounts usage = node.resourceUsage();
            List<String> tags = node.tags() == null ? List.of() : node.tags();
            String state = node.state();
            String[] row = {node.id(), node.tree() != null ? node.tree() : node.treeProblem() != null ? "(none)" : "-",
                tags.isEmpty() ? "-" : String.join(",", tags),
                Format.number(usage.get("cpu", 0)) + "/" + Format.cpu(limits.get("cpu", 0)),
                Format.bytes(usage.get("memory", 0)) + "/" + Format.bytes(limits.get("memory", 0)),
                node.diskSpaceFree() == null ? "-" : Format.bytes(node.diskSpaceFree()),
                Integer.toString(node.jobs()), node.drained() != null ? state + ", drained"
                        : node.unschedulable() != null ? state + ", no new jobs" : state,
                node.address() == null ? "-" : node.address(), topology(node)};
            if (!topology) {
                row = Arrays.copyOf(row, row.length - 1);
            }
            if (reserved) {
                row = Arrays.copyOf(row, row.length + 1);
                row[row.length - 1] = node.reservedFor() == null ? "-" : "gang " + node.reservedFor().operationId();
            }
            String[] shown = row.clone();
            shown[7] = printer.style().state(row[7]);
            table.row(row, shown);
        }
        if (table.isEmpty()) {
            printer.println("no nodes (start an agent with 'grove agent', or run 'grove local')");
        } else {
            printer.print(table);
            largestFree(scheduler, printer, sorted);
            // in a cluster where some nodes run container images, say which do not and why
            boolean mixed = sorted.stream().anyMatch(n -> n.noImages() == null) && sorted.stream().anyMatch(n -> n.noImages() != null);
            for (NodeView node : sorted) {
                if (mixed && node.noImages() != null) {
                    printer.println("node " + node.id() + " runs no jobs in container images: " + node.noImages());
                }
                if (node.drained() != null) {
                    printer.println(node.unschedulable() + "; undrain with: grove nodes undrain " + node.id());
                } else if (node.unschedulable() != null) {
                    printer.println("node " + node.id() + " starts no jobs: " + node.unschedulable());
                }
                if (node.reservedFor() != null) {
                    printer.println(reservation(node, Instant.now()));
                }
                if (node.topologyMissing() != null && !node.topologyMissing().isEmpty()) {
                    printer.println("node " + node.id() + " gives no " + String.join(", no ", node.topologyMissing())
                            + ": it is in no domain of " + (node.topologyMissing().size() == 1 ? "that level" : "those levels")
                            + " (start its agent with --topology)");
                }
                if (node.gpusOutOfService() != null) {
                    node.gpusOutOfService().forEach(gpu -> printer.println("node " + node.id() + " " + gpu
                            + " (out of service; remove WORK/gpus-out-of-service/INDEX on the node to put it back)"));
                }
            }
        }
        return ExitCodes.OK;
    }

    /** What a node's reservation holds back, and until when. */
    static String reservation(NodeView node, Instant now) {
        ReservationView held = node.reservedFor();
        return "node " + node.id() + " is reserved for gang " + held.operationId()
                + (held.domain() == null ? "" : " (" + held.domain() + ")") + " for " + Format.age(held.since(), now)
                + (held.predictedStart() == null ? ", its start unknown (a job in its way has no time limit)"
                        : ", predicted to start at " + held.predictedStart() + " (" + Format.until(held.predictedStart(), now)
                                + ")")
                + ": only jobs whose time limit ends before then, or that fit beside the gang, start there";
    }

    /** For each tree that knows topology levels: the domain of each level with the most free, as a gang would see it. */
    private static void largestFree(SchedulerClient scheduler, Printer printer, List<NodeView> nodes)
            throws CliException {
        Set<String> trees = new TreeSet<>();
        nodes.stream().filter(n -> n.topologyPath() != null && n.tree() != null).forEach(n -> trees.add(n.tree()));
        for (String tree : trees) {
            TopologyView topology = scheduler.get("/pool_trees/" + tree + "/topology", TopologyView.class);
            List<String> parts = new ArrayList<>();
            for (TopologyView.Level level : topology.levels()) {
                TopologyView.Domain largest = level.domains().stream()
                        .filter(d -> d.name().equals(level.largestFree())).findFirst().orElse(null);
                parts.add(largest == null ? level.level() + " none" : level.level() + " " + largest.name() + " ("
                        + Format.number(largest.free().get(topology.mainResource(), 0)) + " " + topology.mainResource()
                        + " free on " + largest.nodes().size() + " node" + (largest.nodes().size() == 1 ? "" : "s") + ")");
            }
            printer.println("tree " + tree + ", the most free in one domain: " + String.join("; ", parts));
        }
    }

    /** Its path in its tree's levels ({@code block=b1/rack=r07}), else what it gives, else {@code -}. */
    private static String topology(NodeView node) {
        if (node.topologyPath() != null && !node.topologyPath().isEmpty()) {
            return node.topologyPath();
        }
        if (node.topology() != null && !node.topology().isEmpty()) {
            StringBuilder given = new StringBuilder();
            node.topology().forEach((level, domain) -> given.append(given.length() == 0 ? "" : ",").append(level)
                    .append('=').append(domain));
            return given.toString();
        }
        return "-";
    }

    @Command(name = "drain", mixinStandardHelpOptions = true,
            description = {"Drains a node (cluster admins): no new job starts on it while its running jobs go on; with "
                + "--now they are stopped gracefully too and start again on other nodes. The drain is kept across "
                + "restarts until `grove nodes undrain`.",
                "", "Examples:", "  grove nodes drain node-7 --reason 'new disks'", "  grove nodes drain node-7 --now"})
    static final class Drain extends ClientCommand {

        @Parameters(paramLabel = "NODE", description = "the node's id, as `grove nodes` lists it")
        String node;

        @Option(names = "--reason", paramLabel = "TEXT", description = "why, shown with the node (at most 500 characters)")
        String reason;

        @Option(names = "--now", description = "also stop its running jobs, gracefully")
        boolean now;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            NodeView drained = scheduler.post("/nodes/" + node + "/drain", new NodeDrainRequest(reason, now), NodeView.class);
            if (!printer.data(drained)) {
                printer.println("node " + node + " drained: no new jobs start on it"
                        + (now ? "; its running jobs are being stopped" : "; its running jobs go on")
                        + "; undrain with: grove nodes undrain " + node);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "undrain", mixinStandardHelpOptions = true,
            description = {"Undrains a node (cluster admins): jobs start on it again.", "",
                "Example: grove nodes undrain node-7"})
    static final class Undrain extends ClientCommand {

        @Parameters(paramLabel = "NODE", description = "the node's id")
        String node;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            NodeView undrained = scheduler.post("/nodes/" + node + "/undrain", null, null, NodeView.class);
            if (!printer.data(undrained)) {
                printer.println("node " + node + " undrained: jobs start on it again");
            }
            return ExitCodes.OK;
        }
    }
}
