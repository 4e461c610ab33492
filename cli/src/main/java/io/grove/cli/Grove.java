package io.grove.cli;

import io.grove.cli.out.Printer;
import io.grove.cli.out.Style;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** Entry point of the {@code grove} command. */
@Command(
        name = "grove",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Grove: a cluster fair-share scheduler with pool trees.",
        subcommands = {LocalCommand.class, SubmitCommand.class, OpsCommand.class, JobsCommand.class, PoolsCommand.class,
            NodesCommand.class, UsageCommand.class, ConfigCommand.class, SchedulerCommand.class, AgentCommand.class, BrokerCommand.class,
            FairShareCommand.class, SimulateCommand.class, CompletionCommand.class, CommandLine.HelpCommand.class,
            CdsTraining.class})
public final class Grove implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        standardOutput = true;
        System.exit(run(args));
    }

    /** Runs the command and returns its exit code. */
    public static int run(String... args) {
        return new CommandLine(new Grove()).execute(args);
    }

    /** Runs the command with the given output streams (for tests and embedding). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new Grove());
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    /** Whether output goes to this process's standard output (not to a writer given by a test). */
    private static volatile boolean standardOutput;

    /** Color only when writing to the real standard output, and that is a terminal. */
    static Style styleFor(CommandLine commandLine) {
        return standardOutput ? Style.detect() : Style.PLAIN;
    }

    /** A terminal's width: {@code COLUMNS} when it is a number of at least 40, else {@link Printer#WIDTH}. */
    static int terminalWidth(String columns) {
        try {
            int width = columns == null ? 0 : Integer.parseInt(columns.strip());
            return width >= 40 ? width : Printer.WIDTH;
        } catch (NumberFormatException e) {
            return Printer.WIDTH;
        }
    }

    /** Whether standard output is a terminal that live displays may redraw. */
    static boolean interactive() {
        return standardOutput && System.console() != null;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
