package io.grove.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
        JsonNode diff = scheduler.post("/config/diff", text, "application/yaml");
        if (printer.data(diff)) {
            return ExitCodes.OK;
        }
        JsonNode changes = diff.get("changes");
        if (changes.isEmpty()) {
            printer.println(file + ": no change to the running configuration");
        } else {
            printer.println(file + " against the running configuration:");
            for (JsonNode change : changes) {
                printer.println("  " + describe(change, diff.get("in_use")));
            }
        }
        Iterator<Map.Entry<String, JsonNode>> trees = diff.get("fair_shares").fields();
        while (trees.hasNext()) {
            Map.Entry<String, JsonNode> tree = trees.next();
            printer.println("");
            printer.println("fair shares in tree " + tree.getKey() + " for the current demands:");
            Table table = new Table(Table.text("POOL"), Table.number("NOW"), Table.number("WITH " + file.getFileName()),
                    Table.number("DEMAND"));
            for (JsonNode pool : tree.getValue()) {
                String name = pool.get("pool").asText();
                table.row(name.equals("<Root>") ? "<root>" : name,
                        pool.has("fair_share_now") ? Format.percent(pool.get("fair_share_now").asDouble()) : "new",
                        Format.percent(pool.get("fair_share_new").asDouble()),
                        Format.percent(pool.get("demand_share").asDouble()));
            }
            printer.print(table);
        }
        return ExitCodes.OK;
    }

    private static String describe(JsonNode change, JsonNode inUse) {
        String kind = change.get("kind").asText();
        String tree = change.get("tree").asText();
        String pool = change.path("pool").asText(null);
        List<String> attributes = new ArrayList<>();
        change.get("attributes").forEach(a -> attributes.add(a.asText()));
        String use = "";
        for (JsonNode blocked : inUse) {
            if (blocked.get("tree").asText().equals(tree) && blocked.path("pool").asText("").equals(pool == null ? "" : pool)) {
                use = "; " + blocked.get("operations").asInt() + " unfinished operation(s) in it: a reload would be refused";
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
