package io.grove.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code grove} command. */
@Command(
        name = "grove",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Grove: a cluster fair-share scheduler with pool trees.",
        subcommands = {SchedulerCommand.class, AgentCommand.class, BrokerCommand.class, FairShareCommand.class, SimulateCommand.class, ConfigCommand.class, CommandLine.HelpCommand.class})
public final class Grove implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command and returns its exit code. */
    public static int run(String... args) {
        return new CommandLine(new Grove()).execute(args);
    }

    /** Runs the command with the given output streams (for tests and embedding). */
    public static int run(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new Grove());
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
