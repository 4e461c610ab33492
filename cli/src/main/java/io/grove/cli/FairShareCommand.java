package io.grove.cli;

import io.grove.config.LoadResult;
import io.grove.server.http.WhatIfJson;
import io.grove.config.whatif.SnapshotLoader;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.FairShareUpdate;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code grove fair-share --snapshot FILE}: one fair-share update, offline, printed as JSON. */
@Command(
        name = "fair-share",
        mixinStandardHelpOptions = true,
        description = {
            "Computes fair shares of a pool tree from a snapshot (what-if).",
            "",
            "One fair-share update of the snapshot's tree, printed as JSON.",
            "",
            "The snapshot (YAML or JSON) holds the tree with its total_resources, the operations with "
                    + "their demand and usage, and optionally integral_state and elapsed_seconds. The output's "
                    + "integral_state can be fed back with a new elapsed_seconds to chain updates.",
            "",
            "Example: grove fair-share --snapshot config/snapshots/example.yaml"})
final class FairShareCommand implements Callable<Integer> {

    @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "the snapshot to compute")
    Path snapshot;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LoadResult<FairShareInput> loaded = SnapshotLoader.load(snapshot);
        if (!loaded.ok()) {
            return Problems.report(err, "the snapshot", loaded);
        }
        FairShareResult result = FairShareUpdate.run(loaded.value());
        WhatIfJson.write(loaded.value(), result, out);
        out.flush();
        return 0;
    }
}
