package io.grove.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code grove pools}: the pool tree with fair shares at work. */
@Command(name = "pools", mixinStandardHelpOptions = true,
        description = {"Shows the pool tree with fair shares, usage and demand, like sshare.",
            "",
            "An indented table: mode, weight, strong guarantee, fair share, usage and demand (shares of the tree's dominant resource), operations running/pending/limit, "
                + "starvation, and for integral pools the accumulated volume against capacity with the estimated "
                + "burst duration.",
            "",
            "Examples:",
            "  grove pools",
            "  grove pools --tree gpu",
            "  grove pools get etl"},
        subcommands = {PoolsCommand.Get.class})
final class PoolsCommand extends ClientCommand {

    @Option(names = "--tree", description = "the pool tree (default: the default tree)")
    String tree;

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        String name = tree != null ? tree : defaultTree(scheduler);
        JsonNode pools = scheduler.get("/pool_trees/" + name + "/pools");
        if (printer.data(pools)) {
            return ExitCodes.OK;
        }
        boolean integral = false;
        for (JsonNode pool : pools) {
            integral |= pool.has("integral_pool_capacity");
        }
        Table table = integral
                ? new Table(Table.text("POOL"), Table.text("MODE"), Table.number("WEIGHT"), Table.text("GUARANTEE"),
                        Table.number("FAIR"), Table.number("USAGE"), Table.number("DEMAND"), Table.number("OPS r/p/max"),
                        Table.text("STARVING"), Table.number("VOLUME"), Table.number("BURST"))
                : new Table(Table.text("POOL"), Table.text("MODE"), Table.number("WEIGHT"), Table.text("GUARANTEE"),
                        Table.number("FAIR"), Table.number("USAGE"), Table.number("DEMAND"), Table.number("OPS r/p/max"),
                        Table.text("STARVING"));
        Map<String, Integer> depth = new HashMap<>();
        for (JsonNode pool : pools) {
            String id = pool.get("name").asText();
            String parent = pool.path("parent").asText(null);
            int level = parent == null || !depth.containsKey(parent) ? 0 : depth.get(parent) + 1;
            depth.put(id, level);
            JsonNode ops = pool.path("operations");
            String starving = pool.path("starvation").asText("non_starving");
            String[] row = {"  ".repeat(level) + (id.equals("<Root>") ? "<root>" : id),
                pool.path("mode").asText("").replace("fair_share", "fair"),
                pool.has("weight") && !id.equals("<Root>") ? Format.number(pool.get("weight").asDouble()) : "",
                guarantee(pool.path("strong_guarantee_resources")),
                Format.percent(dominant(pool.path("fair_share").path("total"))),
                Format.percent(dominant(pool.path("usage_share"))),
                Format.percent(dominant(pool.path("demand_share"))),
                id.equals("<Root>") ? ops.path("running").asInt() + "/" + ops.path("pending").asInt() + "/-"
                        : ops.path("running").asInt() + "/" + ops.path("pending").asInt() + "/" + limit(ops),
                starving.equals("non_starving") ? "" : starving.replace('_', ' ')};
            String[] shown = row.clone();
            shown[8] = row[8].isEmpty() ? "" : printer.style().state("starving").replace("starving", row[8]);
            if (integral) {
                String[] wide = Arrays.copyOf(row, row.length + 2);
                wide[9] = pool.has("integral_pool_capacity") ? volume(pool) : "";
                wide[10] = pool.has("estimated_burst_usage_duration_seconds")
                        ? "~" + Format.duration(Duration.ofSeconds((long) pool.get("estimated_burst_usage_duration_seconds")
                                .asDouble())) : "";
                String[] wideShown = Arrays.copyOf(shown, shown.length + 2);
                wideShown[9] = wide[9];
                wideShown[10] = wide[10];
                table.row(wide, wideShown);
            } else {
                table.row(row, shown);
            }
        }
        printer.println("tree " + name);
        printer.print(table);
        return ExitCodes.OK;
    }

    private static String guarantee(JsonNode configured) {
        return configured.isEmpty() ? "-" : OpsCommand.resources(configured);
    }

    private static String limit(JsonNode ops) {
        int max = ops.path("max_running").asInt(-1);
        return max < 0 || max == Integer.MAX_VALUE ? "-" : Integer.toString(max);
    }

    /** The accumulated volume as a share of the capacity, on the resource where it is fullest. */
    private static String volume(JsonNode pool) {
        JsonNode volume = pool.path("accumulated_resource_volume");
        JsonNode capacity = pool.path("integral_pool_capacity");
        double ratio = 0;
        Iterator<String> names = capacity.fieldNames();
        while (names.hasNext()) {
            String r = names.next();
            double cap = capacity.get(r).asDouble();
            if (cap > 0) {
                ratio = Math.max(ratio, volume.path(r).asDouble() / cap);
            }
        }
        return Format.percent(ratio);
    }

    static double dominant(JsonNode vector) {
        double max = 0;
        Iterator<JsonNode> values = vector.elements();
        while (values.hasNext()) {
            max = Math.max(max, values.next().asDouble());
        }
        return max;
    }

    static String defaultTree(SchedulerClient scheduler) throws CliException {
        for (JsonNode tree : scheduler.get("/pool_trees")) {
            if (tree.path("default").asBoolean()) {
                return tree.get("name").asText();
            }
        }
        throw new CliException(ExitCodes.NOT_FOUND, "the scheduler has no default pool tree; give --tree");
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = {"Every attribute of one pool: configuration, shares, operations, integral volumes.",
                "", "Example: grove pools get etl --tree physical"})
    static final class Get extends ClientCommand {

        @Parameters(paramLabel = "POOL")
        String pool;

        @Option(names = "--tree", description = "the pool tree (default: the default tree)")
        String tree;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            String name = tree != null ? tree : defaultTree(scheduler);
            JsonNode found = scheduler.get("/pool_trees/" + name + "/pools/" + pool);
            if (printer.data(found)) {
                return ExitCodes.OK;
            }
            Table table = new Table(Table.text("ATTRIBUTE"), Table.text("VALUE"));
            flatten("", found, table);
            printer.print(table);
            return ExitCodes.OK;
        }

        private static void flatten(String prefix, JsonNode node, Table table) {
            node.fields().forEachRemaining(e -> {
                String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
                JsonNode value = e.getValue();
                if (value.isObject() && value.has("cpu") && value.size() <= 5) {
                    table.row(key, vector(value));
                } else if (value.isObject()) {
                    flatten(key, value, table);
                } else {
                    table.row(key, value.isNumber() ? Format.number(value.asDouble()) : value.asText());
                }
            });
        }

        private static String vector(JsonNode value) {
            StringBuilder text = new StringBuilder();
            value.fields().forEachRemaining(e -> text.append(text.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
                    .append(Format.number(e.getValue().asDouble())));
            return text.toString();
        }
    }
}
