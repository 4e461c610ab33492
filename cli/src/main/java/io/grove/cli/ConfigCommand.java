package io.grove.cli;

import io.grove.api.ConfigView;
import io.grove.cli.client.CliException;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Printer;
import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code grove config ...}: admin commands on the pools file. */
@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        description = "Works with the pools file (pools.yaml).",
        subcommands = {ConfigCommand.Validate.class, ConfigCommand.Show.class, ConfigCommand.Reload.class,
            ConfigDiffCommand.class})
final class ConfigCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code grove config validate FILE}: every problem with its line, or a summary of the trees. */
    @Command(name = "validate", mixinStandardHelpOptions = true,
            description = {"Checks a pools file. Prints every problem with its line and pool, exits 1 if there is any.",
                "", "Example: grove config validate config/pools.yaml"})
    static final class Validate implements Callable<Integer> {

        @Parameters(paramLabel = "FILE", description = "the pools file to check")
        Path file;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            LoadResult<PoolsConfig> loaded = PoolsConfigLoader.load(file);
            if (!loaded.ok()) {
                return Problems.report(err, file.toString(), loaded);
            }
            PoolsConfig config = loaded.value();
            out.println(file + ": valid");
            for (PoolTreeConfig tree : config.trees().values()) {
                int pools = PoolTree.of(tree).pools().size();
                out.println("  tree " + tree.name() + (tree.name().equals(config.defaultTree()) ? " (default)" : "")
                        + ": " + pools + " pool" + (pools == 1 ? "" : "s")
                        + (tree.nodesFilter().isEmpty() ? "" : ", nodes_filter \"" + tree.nodesFilter() + "\""));
            }
            out.flush();
            return 0;
        }
    }

    /** {@code grove config show}: the running configuration. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"The scheduler's running pools file and how its last reload went.", "", "Example: grove config show"})
    static final class Show extends ClientCommand {

        @Override
        int execute(SchedulerClient scheduler, Printer printer)
                throws CliException {
            ConfigView config = scheduler.get("/config", ConfigView.class);
            if (printer.data(config)) {
                return 0;
            }
            printer.println("# " + config.file() + " (default tree " + config.defaultTree() + "); last reload: "
                    + reload(config.lastReload()));
            printer.writer().print(config.text());
            printer.writer().flush();
            return 0;
        }
    }

    static String reload(ConfigView.ReloadStatus last) {
        if (last == null) {
            return "none";
        }
        return last.at() + ", " + (last.applied() ? "applied" : "refused") + ": " + last.message();
    }

    /** {@code grove config reload}: reads the pools file again. */
    @Command(name = "reload", mixinStandardHelpOptions = true,
            description = {"Makes the scheduler read its pools file again: applied whole, or refused whole with the reasons.",
                "", "Example: grove config reload"})
    static final class Reload extends ClientCommand {

        @Override
        int execute(SchedulerClient scheduler, Printer printer)
                throws CliException {
            ConfigView.ReloadStatus status = scheduler.post("/config/reload", null, null, ConfigView.ReloadStatus.class);
            if (!printer.data(status)) {
                printer.println("reloaded: " + reload(status));
            }
            return 0;
        }
    }
}
