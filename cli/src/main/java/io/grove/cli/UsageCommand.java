package io.grove.cli;

import io.grove.api.UsageReport;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code grove usage}: resource-hours used, guaranteed and fair, like {@code sreport}. */
@Command(name = "usage", mixinStandardHelpOptions = true,
        description = {"Resource-hours used, guaranteed and fair in a period, from the accounting database.",
            "",
            "USED is exact: what the jobs held from their start to their end (running jobs up to now), in the pool",
            "they ran in and every pool above it; the same numbers by pool, tree, user, operation and in",
            "grove jobs history. By pool or tree also: fair share, strong guarantee, integral resource flow and",
            "burst guarantee, metered every 10 s. PREEMPTED: the work preempted jobs lost, what they held times",
            "the time since their last checkpoint (or start), counted when they ended.",
            "",
            "Examples:",
            "  grove usage --since 30d",
            "  grove usage --by user --pool research --since 2026-10-01 --until 2026-11-01 -o csv",
            "  grove usage --by tree --resource cpu,gpu"})
final class UsageCommand extends ClientCommand {

    @Override
    boolean printsCsv() {
        return true;
    }

    @Option(names = "--by", defaultValue = "pool", paramLabel = "GROUP", description = "pool, tree, user or operation "
            + "(default: ${DEFAULT-VALUE})")
    String by;

    @Option(names = "--pool", description = "only this pool")
    String pool;

    @Option(names = "--tree", description = "only this tree")
    String tree;

    @Option(names = "--owner", paramLabel = "USER", description = "only this user (by user or operation; --user says who you are)")
    String user;

    @Option(names = "--since", defaultValue = "30d", paramLabel = "WHEN", description = "7d, 24h, a date (UTC) or an instant "
            + "(default: ${DEFAULT-VALUE})")
    String since;

    @Option(names = "--until", paramLabel = "WHEN", description = "the same forms (default: now)")
    String until;

    @Option(names = "--resource", defaultValue = "cpu,gpu,memory", split = ",", paramLabel = "R,...",
            description = "the resources shown (default: ${DEFAULT-VALUE})")
    List<String> resources;

    /** Resource-hours as read: small amounts (a few cpu-seconds) keep their digits. */
    static String hours(double value) {
        if (value == 0) {
            return "0";
        }
        return String.format(Locale.ROOT, Math.abs(value) < 0.1 ? "%.4f" : Math.abs(value) < 100 ? "%.2f" : "%,.1f", value);
    }

    static final List<String> KINDS = List.of("used", "fair_share", "strong_guarantee", "resource_flow", "burst_guarantee",
            "preempted");

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        StringBuilder path = new StringBuilder("/usage?by=").append(encode(by)).append("&since=").append(encode(since));
        parameters(path, "until", until, "pool", pool, "tree", tree, "user", user);
        UsageReport report = scheduler.get(path.toString(), UsageReport.class);
        if (printer.data(report)) {
            return ExitCodes.OK;
        }
        boolean pools = by.equals("pool") || by.equals("tree");
        List<String> kinds = pools ? KINDS : List.of("used", "preempted");
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(pools ? List.of("TREE", by.toUpperCase(Locale.ROOT)) : List.of(by.toUpperCase(Locale.ROOT)));
        header.add("RESOURCE");
        kinds.forEach(kind -> header.add(kind.toUpperCase(Locale.ROOT)));
        for (UsageReport.Row row : report.rows()) {
            for (String resource : resources) {
                List<String> line = new ArrayList<>(pools ? List.of(row.tree(), row.key()) : List.of(String.valueOf(row.key())));
                line.add(unit(resource));
                boolean any = false;
                for (String kind : kinds) {
                    Map<String, Double> hours = row.hours().get(kind);
                    double value = hours == null ? 0 : hours.getOrDefault(resource, 0.0) / scale(resource);
                    any |= value != 0;
                    line.add(printer.csv() ? Double.toString(value) : hours(value));
                }
                if (any || printer.csv()) {
                    rows.add(line);
                }
            }
        }
        if (printer.csv()) {
            List<List<String>> all = new ArrayList<>();
            all.add(header);
            all.addAll(rows);
            printer.printCsv(all);
            return ExitCodes.OK;
        }
        if (rows.isEmpty()) {
            printer.println("no usage recorded from " + report.since() + " to " + report.until());
            return ExitCodes.OK;
        }
        Table.Column[] columns = new Table.Column[header.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = i < (pools ? 3 : 2) ? Table.text(header.get(i)) : Table.number(header.get(i));
        }
        Table table = new Table(columns);
        rows.forEach(line -> table.row(line.toArray(new String[0])));
        printer.println("resource-hours from " + report.since() + " to " + report.until());
        printer.print(table);
        return ExitCodes.OK;
    }

    /** Memory in GiB-hours; the others in their own hours. */
    private static double scale(String resource) {
        return resource.equals("memory") ? 1L << 30 : 1;
    }

    private static String unit(String resource) {
        return resource.equals("memory") ? "memory (GiB)" : resource;
    }

    /** Appends {@code &name=value} for each pair (name, value) whose value is given. */
    static void parameters(StringBuilder path, String... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                path.append('&').append(pairs[i]).append('=').append(encode(pairs[i + 1]));
            }
        }
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
