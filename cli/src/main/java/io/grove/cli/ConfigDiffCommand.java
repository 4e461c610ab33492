package io.grove.cli;

import io.grove.api.ConfigDiff;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.pool.PoolsConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code grove config diff FILE}: what a new pools file would change, before anyone applies it. */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Compares a pools file with the scheduler's running configuration: trees and pools added, removed "
                + "and changed (which attributes), pools in use that it removes (a reload would be refused), and every "
                + "pool's fair share now and with the new file for the current demands (the what-if computation).",
            "Nothing is applied.",
            "",
            "Example: grove config diff config/pools.yaml"})
final class ConfigDiffCommand extends ClientCommand {

    @Parameters(paramLabel = "FILE")
    Path file;

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        LoadResult<PoolsConfig> local = PoolsConfigLoader.load(file);
        if (!local.ok()) {
            throw new CliException(ExitCodes.FAILED, file + " is not valid:\n" + local.describe());
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new CliException(ExitCodes.USAGE, "cannot read " + file + ": " + e.getMessage());
        }
        ConfigDiff diff = scheduler.post("/config/diff", text, "application/yaml", ConfigDiff.class);
        if (printer.data(diff)) {
            return ExitCodes.OK;
        }
        List<ConfigDiff.Change> changes = diff.changes();
        if (changes.isEmpty()) {
            printer.println(file + ": no change to the running configuration");
        } else {
            printer.println(file + " against the running configuration:");
            for (ConfigDiff.Change change : changes) {
                printer.println("  " + describe(change, diff.inUse()));
            }
        }
        for (Map.Entry<String, List<ConfigDiff.PoolShares>> tree : diff.fairShares().entrySet()) {
            printer.println("");
            printer.println("fair shares in tree " + tree.getKey() + " for the current demands:");
            Table table = new Table(Table.text("POOL"), Table.number("NOW"), Table.number("WITH " + file.getFileName()),
                    Table.number("DEMAND"));
            for (ConfigDiff.PoolShares pool : tree.getValue()) {
                String name = pool.pool();
                table.row(name.equals("<Root>") ? "<root>" : name,
                        pool.fairShareNow() != null ? Format.percent(pool.fairShareNow()) : "new",
                        Format.percent(pool.fairShareNew()), Format.percent(pool.demandShare()));
            }
            printer.print(table);
        }
        return ExitCodes.OK;
    }

    private static String describe(ConfigDiff.Change change, List<ConfigDiff.InUse> inUse) {
        String kind = change.kind();
        String tree = change.tree();
        String pool = change.pool();
        List<String> attributes = change.attributes();
        String use = "";
        for (ConfigDiff.InUse blocked : inUse) {
            if (blocked.tree().equals(tree) && Objects.equals(blocked.pool(), pool)) {
                use = "; " + blocked.operations() + " unfinished operation(s) in it: a reload would be refused";
            }
        }
        return switch (kind) {
            case "tree_added" -> "+ tree " + tree;
            case "tree_removed" -> "- tree " + tree + use;
            case "tree_changed" -> "~ tree " + tree + ": " + String.join(", ", attributes);
            case "pool_added" -> "+ pool " + pool + " (tree " + tree + ")";
            case "pool_removed" -> "- pool " + pool + " (tree " + tree + ")" + use;
            default -> "~ pool " + pool + " (tree " + tree + "): " + String.join(", ", attributes);
        };
    }
}
