package io.grove.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
        JsonNode nodes = scheduler.get("/nodes");
        if (printer.data(nodes)) {
            return ExitCodes.OK;
        }
        Table table = new Table(Table.text("NODE"), Table.text("TREE"), Table.text("TAGS"), Table.number("CPU"),
                Table.number("MEMORY"), Table.number("JOBS"), Table.text("STATE"), Table.text("ADDRESS"));
        List<JsonNode> sorted = new ArrayList<>();
        nodes.forEach(sorted::add);
        sorted.sort(Comparator.comparing(n -> n.get("id").asText()));
        for (JsonNode node : sorted) {
            JsonNode limits = node.path("resource_limits");
            JsonNode usage = node.path("resource_usage");
            List<String> tags = new ArrayList<>();
            node.path("tags").forEach(t -> tags.add(t.asText()));
            String state = node.path("state").asText();
            String[] row = {node.get("id").asText(), node.path("tree").asText(node.has("tree_problem") ? "(none)" : "-"),
                tags.isEmpty() ? "-" : String.join(",", tags),
                Format.number(usage.path("cpu").asDouble()) + "/" + Format.cpu(limits.path("cpu").asDouble()),
                Format.bytes(usage.path("memory").asDouble()) + "/" + Format.bytes(limits.path("memory").asDouble()),
                node.path("jobs").asText("0"), state, node.path("address").asText("-")};
            String[] shown = row.clone();
            shown[6] = printer.style().state(state);
            table.row(row, shown);
        }
        if (table.isEmpty()) {
            printer.println("no nodes (start an agent with 'grove agent', or run 'grove local')");
        } else {
            printer.print(table);
        }
        return ExitCodes.OK;
    }
}
