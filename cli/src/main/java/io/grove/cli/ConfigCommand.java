package io.grove.cli;

import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code grove config ...}: admin commands on the pools file. */
@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        description = "Works with the pools file (pools.yaml).",
        subcommands = {ConfigCommand.Validate.class})
final class ConfigCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code grove config validate FILE}: every problem with its line, or a summary of the trees. */
    @Command(name = "validate", mixinStandardHelpOptions = true,
            description = "Checks a pools file. Prints every problem with its line and pool, exits 1 if there is any.")
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
}
