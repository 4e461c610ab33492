package io.grove.cli;

import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.client.Target;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Style;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * A command that talks to the scheduler: resolves where it is and who the user is, runs, and turns
 * a failure into one line on stderr ({@code grove: ...}) and its exit code.
 */
abstract class ClientCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ClientOptions client = new ClientOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the command; returns the exit code. */
    abstract int execute(SchedulerClient scheduler, Printer printer) throws CliException;

    /** Whether the command prints {@code -o csv} (a table of rows); others refuse it rather than ignore it. */
    boolean printsCsv() {
        return false;
    }

    @Override
    public final Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (client.output == ClientOptions.Output.csv && !printsCsv()) {
                throw new CliException(ExitCodes.USAGE, "-o csv is for 'grove usage' and 'grove jobs history'; "
                        + "'" + spec.qualifiedName() + "' prints -o table, json or yaml");
            }
            Target target = Target.resolve(client.scheduler, client.user, System.getenv(), System.getProperty("user.name"));
            Style style = spec.commandLine().getOut() == null ? Style.PLAIN : Grove.styleFor(spec.commandLine());
            return execute(new SchedulerClient(target), new Printer(spec.commandLine().getOut(), client.output.name(), style,
                    spec.commandLine().getErr(), Grove.interactive() ? Grove.terminalWidth(System.getenv("COLUMNS")) : Printer.UNCUT));
        } catch (CliException e) {
            err.println("grove: " + e.getMessage());
            err.flush();
            return e.exitCode();
        }
    }
}
