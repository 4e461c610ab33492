package io.grove.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.api.Amounts;
import io.grove.api.ApiJson;
import io.grove.api.ElementView;
import io.grove.api.PoolPauseRequest;
import io.grove.api.PoolTreeView;
import io.grove.api.PoolView;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
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
            "  grove pools get etl",
            "  grove pools pause research --drain",
            "  grove pools resume research"},
        subcommands = {PoolsCommand.Get.class, PoolsCommand.Pause.class, PoolsCommand.Resume.class})
final class PoolsCommand extends ClientCommand {

    @Option(names = "--tree", description = "the pool tree (default: the default tree)")
    String tree;

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        String name = tree != null ? tree : defaultTree(scheduler);
        List<PoolView> pools = scheduler.list("/pool_trees/" + name + "/pools", PoolView.class);
        if (printer.data(pools)) {
            return ExitCodes.OK;
        }
        boolean integral = false;
        for (PoolView pool : pools) {
            integral |= pool.shares().integralPoolCapacity() != null;
        }
        Table table = integral
                ? new Table(Table.text("POOL"), Table.text("MODE"), Table.number("WEIGHT"), Table.text("GUARANTEE"),
                        Table.number("FAIR"), Table.number("USAGE"), Table.number("DEMAND"), Table.number("OPS r/p/max"),
                        Table.text("STARVING"), Table.number("VOLUME"), Table.number("BURST"))
                : new Table(Table.text("POOL"), Table.text("MODE"), Table.number("WEIGHT"), Table.text("GUARANTEE"),
                        Table.number("FAIR"), Table.number("USAGE"), Table.number("DEMAND"), Table.number("OPS r/p/max"),
                        Table.text("STARVING"));
        Map<String, Integer> depth = new HashMap<>();
        for (PoolView pool : pools) {
            ElementView shares = pool.shares();
            String id = pool.name();
            String parent = shares.parent();
            int level = parent == null || !depth.containsKey(parent) ? 0 : depth.get(parent) + 1;
            depth.put(id, level);
            PoolView.Operations ops = pool.operations();
            String starving = pool.starvation() == null ? "non_starving" : pool.starvation();
            String held = pool.paused() != null && pool.paused().pool().equals(id)
                    ? (pool.paused().drain() ? " [drained]" : " [paused]") : "";
            String[] row = {"  ".repeat(level) + (id.equals("<Root>") ? "<root>" : id) + held,
                pool.mode() == null ? "" : pool.mode().replace("fair_share", "fair"),
                id.equals("<Root>") ? "" : Format.number(shares.weight()),
                guarantee(pool.strongGuaranteeResources()),
                Format.percent(shares.fairShare().total().dominant()),
                Format.percent(shares.usageShare().dominant()),
                Format.percent(shares.demandShare().dominant()),
                id.equals("<Root>") ? ops.running() + "/" + ops.pending() + "/-"
                        : ops.running() + "/" + ops.pending() + "/" + limit(ops),
                starving.equals("non_starving") ? "" : starving.replace('_', ' ')};
            String[] shown = row.clone();
            shown[8] = row[8].isEmpty() ? "" : printer.style().state("starving").replace("starving", row[8]);
            if (integral) {
                String[] wide = Arrays.copyOf(row, row.length + 2);
                wide[9] = shares.integralPoolCapacity() != null ? volume(shares) : "";
                wide[10] = shares.estimatedBurstUsageDurationSeconds() != null
                        ? "~" + Format.duration(Duration.ofSeconds(shares.estimatedBurstUsageDurationSeconds().longValue()))
                        : "";
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

    private static String guarantee(Amounts configured) {
        return configured == null || configured.asMap().isEmpty() ? "-" : OpsCommand.resources(configured);
    }

    private static String limit(PoolView.Operations ops) {
        int max = ops.maxRunning();
        return max < 0 || max == Integer.MAX_VALUE ? "-" : Integer.toString(max);
    }

    /** The accumulated volume as a share of the capacity, on the resource where it is fullest. */
    private static String volume(ElementView pool) {
        Amounts volume = pool.accumulatedResourceVolume();
        double ratio = 0;
        for (Map.Entry<String, Double> capacity : pool.integralPoolCapacity().asMap().entrySet()) {
            if (capacity.getValue() > 0) {
                ratio = Math.max(ratio, (volume == null ? 0 : volume.get(capacity.getKey(), 0)) / capacity.getValue());
            }
        }
        return Format.percent(ratio);
    }

    static String defaultTree(SchedulerClient scheduler) throws CliException {
        for (PoolTreeView tree : scheduler.list("/pool_trees", PoolTreeView.class)) {
            if (tree.isDefault()) {
                return tree.name();
            }
        }
        throw new CliException(ExitCodes.NOT_FOUND, "the scheduler has no default pool tree; give --tree");
    }

    /** The pool a subcommand acts on, and its tree (the default tree unless given). */
    static final class PoolTarget {
        @Parameters(paramLabel = "POOL")
        String pool;

        @Option(names = "--tree", description = "the pool tree (default: the default tree)")
        String tree;

        /** The pool's path in the API: {@code /pool_trees/T/pools/P}. */
        String path(SchedulerClient scheduler) throws CliException {
            return "/pool_trees/" + (tree != null ? tree : defaultTree(scheduler)) + "/pools/" + pool;
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true,
            description = {"Pauses a pool (its administrators, or the cluster's): no new job starts in it or below it, "
                + "while running jobs go on; with --drain its running jobs are stopped gracefully too. The pause is kept "
                + "across restarts until `grove pools resume`.",
                "", "Examples:", "  grove pools pause research", "  grove pools pause research --drain --tree gpu"})
    static final class Pause extends ClientCommand {

        @picocli.CommandLine.Mixin
        PoolTarget target = new PoolTarget();

        @Option(names = "--drain", description = "also stop its running jobs, gracefully")
        boolean drain;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            PoolView paused = scheduler.post(target.path(scheduler) + "/pause", new PoolPauseRequest(drain),
                    PoolView.class);
            if (!printer.data(paused)) {
                printer.println("pool " + target.pool + " " + (drain ? "drained" : "paused")
                        + ": no new jobs start in it" + (drain ? "; its running jobs are being stopped" : "")
                        + "; resume with: grove pools resume " + target.pool);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = {"Resumes a paused pool: its jobs start again.", "", "Example: grove pools resume research"})
    static final class Resume extends ClientCommand {

        @picocli.CommandLine.Mixin
        PoolTarget target = new PoolTarget();

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            PoolView resumed = scheduler.post(target.path(scheduler) + "/resume", null, null, PoolView.class);
            if (!printer.data(resumed)) {
                printer.println("pool " + target.pool + " resumed");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = {"Every attribute of one pool: configuration, shares, operations, integral volumes.",
                "", "Example: grove pools get etl --tree physical"})
    static final class Get extends ClientCommand {

        @picocli.CommandLine.Mixin
        PoolTarget target = new PoolTarget();

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            PoolView found = scheduler.get(target.path(scheduler), PoolView.class);
            if (printer.data(found)) {
                return ExitCodes.OK;
            }
            Table table = new Table(Table.text("ATTRIBUTE"), Table.text("VALUE"));
            // every attribute of the record, as its JSON names them
            flatten("", ApiJson.tree(found), table);
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
