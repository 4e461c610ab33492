package io.grove.cli;

import io.grove.api.JobLog;
import io.grove.api.JobView;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code grove jobs ...}: an operation's jobs and their logs. */
@Command(name = "jobs", mixinStandardHelpOptions = true,
        description = "Lists an operation's jobs, shows their logs, and the history of ended jobs.",
        subcommands = {JobsCommand.ListJobs.class, JobsCommand.Logs.class, JobsHistory.class})
final class JobsCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
            description = {"An operation's running jobs and its last 1,000 ended attempts.", "", "Example: grove jobs list op-17"})
    static final class ListJobs extends ClientCommand {

        @Parameters(paramLabel = "OPERATION")
        String operation;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            List<JobView> jobs = scheduler.list("/operations/" + operation + "/jobs", JobView.class);
            if (printer.data(jobs)) {
                return ExitCodes.OK;
            }
            Instant now = Instant.now();
            Table table = new Table(Table.text("JOB"), Table.number("INDEX"), Table.number("TRY"), Table.text("STATE"),
                    Table.text("NODE"), Table.number("TIME"), Table.text("CPU"), Table.text("GPUS"), Table.text("REASON"));
            for (JobView job : jobs) {
                String state = job.state();
                String time = job.finishedAt() != null
                        ? Format.duration(Duration.between(Instant.parse(job.startedAt()), Instant.parse(job.finishedAt())))
                        : Format.age(job.startedAt(), now);
                String reason = job.preparing() != null ? job.preparing() : (job.reason() == null ? "" : job.reason())
                        + preemptedFor(job) + (job.message() != null ? ": " + firstLine(job.message()) : "");
                String[] row = {job.id(), Integer.toString(job.index()), Integer.toString(job.attempt()), state,
                    job.node() == null ? "-" : job.node(), time, cpu(job),
                    job.gpus() == null ? "-" : String.join(",", job.gpus()), reason};
                String[] shown = row.clone();
                shown[3] = printer.style().state(state);
                table.row(row, shown);
            }
            if (table.isEmpty()) {
                printer.println("no jobs of " + operation + " yet");
            } else {
                printer.print(table);
            }
            return ExitCodes.OK;
        }
    }

    /** CPU time as the node counted, and how much of the time its quota throttled it: {@code 12.3s, 70% throttled}. */
    static String cpu(JobView job) {
        if (job.cpuSeconds() == null) {
            return "-";
        }
        String used = String.format(Locale.ROOT, "%.1fs", job.cpuSeconds());
        return job.cpuThrottledShare() == null || job.cpuThrottledShare() < 0.005 ? used
                : used + String.format(Locale.ROOT, ", %.0f%% throttled", 100 * job.cpuThrottledShare());
    }

    @Command(name = "logs", mixinStandardHelpOptions = true,
            description = {"A job's output, read through the scheduler from its node's agent (your own jobs, or any as an "
                    + "administrator of their pool).",
                "",
                "Examples:",
                "  grove jobs logs op-17-3",
                "  grove jobs logs op-17-3 --stderr",
                "  grove jobs logs op-17-3 --follow"})
    static final class Logs extends ClientCommand {

        @Parameters(paramLabel = "JOB")
        String job;

        @Option(names = "--operation", paramLabel = "ID", description = "the job's operation (default: from the job id)")
        String operation;

        @Option(names = "--stderr", description = "stderr instead of stdout")
        boolean stderr;

        @Option(names = {"-f", "--follow"}, description = "keep printing as the job writes, until it ends")
        boolean follow;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            String op = operation != null ? operation : job.contains("-") ? job.substring(0, job.lastIndexOf('-')) : job;
            find(scheduler, op);
            String stream = stderr ? "stderr" : "stdout";
            String logs = "/operations/" + op + "/jobs/" + job + "/logs?stream=" + stream + "&offset=";
            long offset = 0;
            while (true) {
                JobLog chunk = scheduler.get(logs + offset, JobLog.class);
                printer.writer().print(chunk.data());
                printer.writer().flush();
                long next = chunk.nextOffset();
                boolean more = next < chunk.size();
                offset = next;
                if (more) {
                    continue;
                }
                if (!follow || !find(scheduler, op).state().equals("running")) {
                    if (follow) {
                        JobLog last = scheduler.get(logs + offset, JobLog.class);
                        printer.writer().print(last.data());
                        printer.writer().flush();
                    }
                    return ExitCodes.OK;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return ExitCodes.FAILED;
                }
            }
        }

        private JobView find(SchedulerClient scheduler, String op) throws CliException {
            for (JobView candidate : scheduler.list("/operations/" + op + "/jobs", JobView.class)) {
                if (candidate.id().equals(job)) {
                    return candidate;
                }
            }
            throw new CliException(ExitCodes.NOT_FOUND, "operation " + op + " has no job " + job
                    + " (see 'grove jobs list " + op + "')");
        }
    }

    /** {@code  for op-7 in research (starvation)}: what a preempted job was taken for, or nothing. */
    static String preemptedFor(JobView job) {
        JobView.PreemptedFor what = job.preemptedFor();
        if (what == null) {
            return "";
        }
        return what.operationId() == null ? " (" + what.reason() + ")"
                : " for " + what.operationId() + (what.pool() == null ? "" : " in " + what.pool()) + " (" + what.reason() + ")";
    }

    static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
