package io.grove.cli;

import io.grove.api.Explanation;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code grove ops explain OP}: why an operation's next job does not start. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Why is it pending? For each pool tree of the operation, the checks the scheduler makes before "
                + "it starts the operation's next job, in its order: count limits, resource limits on its path, its fair "
                + "share level by level, the nodes that match it and their room, and its starvation. The first check "
                + "marked 'blocks' is the reason.",
            "",
            "Example: grove ops explain op-17"})
final class ExplainCommand extends ClientCommand {

    @Parameters(paramLabel = "ID")
    String id;

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        Explanation explanation = scheduler.get("/operations/" + id + "/explain", Explanation.class);
        if (printer.data(explanation)) {
            return ExitCodes.OK;
        }
        for (Explanation.Tree tree : explanation.trees()) {
            printer.println(explanation.operationId() + " in tree " + tree.tree() + " (pool " + tree.pool() + "): "
                    + tree.verdict().replace('_', ' '));
            for (Explanation.Check check : tree.checks()) {
                String mark = check.blocks() ? printer.style().state("failed").replace("failed", "blocks") : "  ok  ";
                printer.println("  " + mark + "  " + check.code().replace('_', ' ') + ": " + check.message());
                if (check.levels() != null) {
                    for (String line : levels(check.levels())) {
                        printer.println("            " + line);
                    }
                }
            }
        }
        Explanation.Forecast forecast = explanation.forecast();
        if (forecast != null) {
            if (forecast.unknown() != null) {
                printer.println("start time: unknown — " + forecast.unknown());
            } else {
                Instant now = Instant.now();
                printer.println("expected to start: the next job " + band(forecast.nextStart(), now) + ", the last "
                        + band(forecast.lastStart(), now));
            }
            for (String assumed : forecast.assumptions()) {
                printer.println("  assuming " + assumed);
            }
        }
        if (explanation.preemptions() != null && !explanation.preemptions().isEmpty()) {
            printer.println("recently preempted jobs of " + explanation.operationId() + ":");
            for (Explanation.Preemption taken : explanation.preemptions()) {
                printer.println("  " + taken.jobId() + " at " + taken.at() + " (" + taken.reason() + ")"
                        + (taken.forOperation() == null ? "" : " for " + taken.forOperation()
                                + (taken.forPool() == null ? "" : " in " + taken.forPool()))
                        + (taken.message() == null ? "" : ": " + taken.message()));
            }
        }
        return ExitCodes.OK;
    }

    /** The path from the operation to the root, one line per level. */
    static List<String> levels(List<Explanation.Level> levels) {
        List<String> lines = new ArrayList<>();
        for (Explanation.Level level : levels) {
            lines.add(String.format(Locale.ROOT, "%-24s fair share %6s  usage %6s  demand %6s", level.id(),
                    Format.percent(level.fairShare()), Format.percent(level.usageShare()),
                    Format.percent(level.demandShare())));
        }
        return lines;
    }

    /** {@code in ~6 min (between 4 and 9 min)}, or {@code not within a day}. */
    static String band(Explanation.Band band, Instant now) {
        if (band == null || band.likely() == null) {
            return "not within a day";
        }
        String likely = in(band.likely(), now);
        String earliest = band.earliest() == null ? null : in(band.earliest(), now);
        String latest = band.latest() == null ? "more than a day" : in(band.latest(), now);
        return likely + (earliest == null || earliest.equals(latest) ? "" : " (between " + earliest + " and " + latest + ")");
    }

    private static String in(String at, Instant now) {
        Duration left = Duration.between(now, Instant.parse(at));
        return left.isNegative() || left.isZero() ? "now" : "in ~" + Format.duration(left);
    }
}
