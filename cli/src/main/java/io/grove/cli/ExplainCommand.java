package io.grove.cli;

import io.grove.api.Explanation;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
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
}
