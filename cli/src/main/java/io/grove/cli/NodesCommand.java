package io.grove.cli;

import io.grove.api.Amounts;
import io.grove.api.NodeView;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code grove nodes}: the cluster's nodes. */
@Command(name = "nodes", mixinStandardHelpOptions = true,
        description = {"Lists the nodes.", "", "The nodes: id, pool tree, tags, CPU and memory (used/offered), jobs, state, and the address of "
                + "the node's agent.", "", "Example: grove nodes -o json"})
final class NodesCommand extends ClientCommand {

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        List<NodeView> nodes = scheduler.list("/nodes", NodeView.class);
        if (printer.data(nodes)) {
            return ExitCodes.OK;
        }
        Table table = new Table(Table.text("NODE"), Table.text("TREE"), Table.text("TAGS"), Table.number("CPU"),
                Table.number("MEMORY"), Table.number("DISK FREE"), Table.number("JOBS"), Table.text("STATE"),
                Table.text("ADDRESS"));
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
                Integer.toString(node.jobs()), node.unschedulable() != null ? state + ", no new jobs" : state,
                node.address() == null ? "-" : node.address()};
            String[] shown = row.clone();
            shown[7] = printer.style().state(row[7]);
            table.row(row, shown);
        }
        if (table.isEmpty()) {
            printer.println("no nodes (start an agent with 'grove agent', or run 'grove local')");
        } else {
            printer.print(table);
            // in a cluster where some nodes run container images, say which do not and why
            boolean mixed = sorted.stream().anyMatch(n -> n.noImages() == null) && sorted.stream().anyMatch(n -> n.noImages() != null);
            for (NodeView node : sorted) {
                if (mixed && node.noImages() != null) {
                    printer.println("node " + node.id() + " runs no jobs in container images: " + node.noImages());
                }
                if (node.unschedulable() != null) {
                    printer.println("node " + node.id() + " starts no jobs: " + node.unschedulable());
                }
                if (node.gpusOutOfService() != null) {
                    node.gpusOutOfService().forEach(gpu -> printer.println("node " + node.id() + " " + gpu
                            + " (out of service; remove WORK/gpus-out-of-service/INDEX on the node to put it back)"));
                }
            }
        }
        return ExitCodes.OK;
    }
}
