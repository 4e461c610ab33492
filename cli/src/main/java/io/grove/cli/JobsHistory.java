package io.grove.cli;

import io.grove.api.JobRecordView;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code grove jobs history}: ended jobs from the accounting database, like {@code sacct}. */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"Jobs that ended, the latest first, with why and what they used (your own, and those of the pools "
                + "you administer).",
            "",
            "Examples:",
            "  grove jobs history --since 24h --state failed",
            "  grove jobs history --pool research --owner bob --since 2026-11-01 -o csv"})
final class JobsHistory extends ClientCommand {

    @Override
    boolean printsCsv() {
        return true;
    }

    @Option(names = "--owner", paramLabel = "USER", description = "only this user's (--user says who you are)")
    String user;

    @Option(names = "--pool", description = "only this pool's")
    String pool;

    @Option(names = "--tree", description = "only this tree's")
    String tree;

    @Option(names = "--state", description = "completed, failed or aborted")
    String state;

    @Option(names = "--operation", paramLabel = "OP", description = "only this operation's")
    String operation;

    @Option(names = "--since", defaultValue = "7d", paramLabel = "WHEN", description = "ended since: 7d, 24h, a date (UTC) "
            + "or an instant (default: ${DEFAULT-VALUE})")
    String since;

    @Option(names = "--until", paramLabel = "WHEN", description = "ended before (default: now)")
    String until;

    @Option(names = "--limit", defaultValue = "100", description = "at most this many (default: ${DEFAULT-VALUE})")
    int limit;

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        StringBuilder path = new StringBuilder("/jobs?since=").append(UsageCommand.encode(since));
        UsageCommand.parameters(path, "until", until, "user", user, "pool", pool, "tree", tree, "state", state,
                "operation", operation);
        SchedulerClient.Page<JobRecordView> page = scheduler.list(path.toString(), JobRecordView.class, Math.max(1, limit));
        if (printer.data(page.items())) {
            return ExitCodes.OK;
        }
        if (printer.csv()) {
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("job", "operation", "user", "tree", "pool", "node", "state", "exit_code", "reason", "started_at",
                    "finished_at", "seconds", "cpu", "memory", "gpu", "cpu_seconds", "gpu_seconds", "message"));
            for (JobRecordView job : page.items()) {
                rows.add(Arrays.asList(job.id(), job.operationId(), job.user(), job.tree(), job.pool(), job.node(),
                        job.state(), job.exitCode() == null ? "" : job.exitCode().toString(), job.reason(), job.startedAt(),
                        job.finishedAt(), Double.toString(job.seconds()), Double.toString(job.resources().cpu()),
                        Double.toString(job.resources().memory()), Double.toString(job.resources().gpu()),
                        job.cpuSeconds() == null ? "" : job.cpuSeconds().toString(), Double.toString(job.gpuSeconds()),
                        job.message()));
            }
            printer.printCsv(rows);
            return ExitCodes.OK;
        }
        if (page.items().isEmpty()) {
            printer.println("no jobs ended in that period");
            return ExitCodes.OK;
        }
        Table table = new Table(Table.text("JOB"), Table.text("USER"), Table.text("POOL"), Table.text("NODE"),
                Table.text("STATE"), Table.number("EXIT"), Table.text("ENDED"), Table.number("TIME"), Table.number("CPU"),
                Table.number("CPU-S"), Table.text("REASON"));
        for (JobRecordView job : page.items()) {
            String reason = (job.reason() == null ? "" : job.reason()) + (job.message() == null ? ""
                    : (job.reason() == null ? "" : ": ") + firstLine(job.message()));
            String[] row = {job.id(), job.user(), job.pool(), job.node() == null ? "-" : job.node(), job.state(),
                job.exitCode() == null ? "-" : job.exitCode().toString(), job.finishedAt(),
                Format.duration(Duration.ofMillis(Math.round(job.seconds() * 1000))),
                String.format(Locale.ROOT, "%.2f", job.resources().cpu()),
                job.cpuSeconds() == null ? "-" : String.format(Locale.ROOT, "%.1f", job.cpuSeconds()), reason};
            String[] shown = row.clone();
            shown[4] = printer.style().state(job.state());
            table.row(row, shown);
        }
        printer.print(table);
        if (page.more()) {
            printer.warn("the latest " + page.items().size() + " shown; more with --limit, or narrow with --since");
        }
        return ExitCodes.OK;
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
