package io.grove.cli;

import io.grove.api.ApiJson;
import io.grove.api.OperationSpecBody;
import io.grove.api.OperationSummary;
import io.grove.api.Quantity;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Printer;
import io.grove.core.operation.ImageReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code grove submit}: a new operation. */
@Command(name = "submit", mixinStandardHelpOptions = true,
        description = {"Submits an operation and prints its id.",
            "",
            "N jobs of one command, or a whole spec from a file (-f).",
            "",
            "Examples:",
            "  grove submit --pool etl --jobs 20 --cpu 1 --memory 2Gi -- ./transform.sh",
            "  grove submit --jobs 4 --env MODE=fast --wait -- 'echo $GROVE_JOB_INDEX; sleep 5'",
            "  grove submit -f config/operations/etl.yaml --wait",
            "  grove submit --image registry.example:5000/team/tool:1.2 --jobs 8 -- 'tool --shard $GROVE_JOB_INDEX'",
            "",
            "With --wait it follows the operation (a live progress bar on a terminal) and exits 0 when it "
                    + "completed, 1 when it failed or was aborted."})
final class SubmitCommand extends ClientCommand {

    @Option(names = {"-f", "--file"}, paramLabel = "SPEC", description = "an operation spec (YAML or JSON, docs/api.md)")
    Path file;

    @Option(names = "--pool", description = "the pool (default: your own ephemeral pool)")
    String pool;

    @Option(names = "--tree", description = "the pool tree (default: the default tree)")
    String tree;

    @Option(names = "--jobs", defaultValue = "1", description = "how many jobs (default: ${DEFAULT-VALUE})")
    int jobs;

    @Option(names = "--cpu", defaultValue = "1", description = "CPUs per job (default: ${DEFAULT-VALUE})")
    double cpu;

    @Option(names = "--memory", defaultValue = "512Mi", description = "memory per job, e.g. 2Gi (default: ${DEFAULT-VALUE})")
    String memory;

    @Option(names = "--gpu", defaultValue = "0", description = "GPUs per job (default: ${DEFAULT-VALUE})")
    int gpu;

    @Option(names = "--disk", paramLabel = "SIZE", description = "disk per job, e.g. 10Gi: its sandbox, private /tmp and logs "
            + "(default: none ordered; the node's own default limit holds)")
    String disk;

    @Option(names = "--image", paramLabel = "REF", description = "run the jobs in this container image (docker_image), "
            + "e.g. registry.example:5000/team/tool:1.2 or name@sha256:...; without a command the image's own entry point runs")
    String image;

    @Option(names = {"--time", "-t"}, paramLabel = "DURATION", description = "how long a job may run, e.g. 2h: past it the "
            + "job is stopped, failed for \"time limit\" (default: the pool's default_time_limit)")
    String timeLimit;

    @Option(names = "--expected-duration", paramLabel = "DURATION", description = "how long a job should run, e.g. 10m "
            + "(expected_duration): what predicted starts assume until jobs like it have finished")
    String expectedDuration;

    @Option(names = "--weight", description = "the operation's weight in its pool (default: 1)")
    Double weight;

    @Option(names = "--title", description = "a title for lists")
    String title;

    @Option(names = "--env", paramLabel = "K=V", description = "environment for the jobs (repeatable)")
    Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--max-failed-jobs", description = "failed jobs allowed before the operation fails (default: scheduler's)")
    Integer maxFailedJobs;

    @Option(names = "--gang", description = "a gang: all of its jobs start together or none, know their peers "
            + "(RANK, WORLD_SIZE, MASTER_ADDR, ...) and restart as one")
    boolean gang;

    @Option(names = "--topology", paramLabel = "required=LEVEL|preferred=LEVEL", description = "where a gang's "
            + "ranks sit: every one in one domain of LEVEL (required=rack), or as few as can be (preferred=rack); "
            + "implies --gang")
    Map<String, String> topology = new LinkedHashMap<>();

    @Option(names = "--after", paramLabel = "OP", description = "start only once operation OP has completed "
            + "(Slurm's afterok; repeatable); if OP fails or is aborted, this one is aborted too")
    List<String> after = new ArrayList<>();

    @Option(names = "--after-any", paramLabel = "OP", description = "start only once operation OP has ended, however "
            + "it ended (Slurm's afterany; repeatable)")
    List<String> afterAny = new ArrayList<>();

    @Option(names = "--wait", description = "follow the operation until it ends")
    boolean await;

    @Parameters(paramLabel = "COMMAND", description = "the command each job runs with bash -c (after --)")
    List<String> command = new ArrayList<>();

    @Override
    int execute(SchedulerClient scheduler, Printer printer) throws CliException {
        String body;
        String type;
        if (file != null) {
            if (!command.isEmpty()) {
                throw new CliException(ExitCodes.USAGE, "give either -f SPEC or a command, not both");
            }
            if (!after.isEmpty() || !afterAny.isEmpty()) {
                throw new CliException(ExitCodes.USAGE, "--after and --after-any go with a command; with -f SPEC write "
                        + "depends_on in the spec (depends_on: [{operation: op-3, condition: completed}])");
            }
            try {
                body = Files.readString(file);
            } catch (IOException e) {
                throw new CliException(ExitCodes.USAGE, "cannot read " + file + ": " + e.getMessage());
            }
            type = file.toString().endsWith(".json") ? "application/json" : "application/yaml";
        } else {
            if (image != null) {
                try {
                    ImageReference.parse(image);
                } catch (IllegalArgumentException e) {
                    throw new CliException(ExitCodes.USAGE, "--image " + image + ": " + e.getMessage());
                }
            }
            if (command.isEmpty() && image == null) {
                throw new CliException(ExitCodes.USAGE, "nothing to run: give a command after --, or -f SPEC "
                        + "(e.g. grove submit --jobs 4 -- 'echo $GROVE_JOB_INDEX')");
            }
            body = ApiJson.write(spec());
            type = "application/json";
        }
        OperationSummary created = scheduler.post("/operations", body, type, OperationSummary.class);
        String id = created.id();
        if (!printer.data(created)) {
            printer.println(id);
        }
        if (!await) {
            return ExitCodes.OK;
        }
        return new Waiter(scheduler, printer, Grove.interactive()).await(id);
    }

    private OperationSpecBody spec() {
        OperationSpecBody.Task main = new OperationSpecBody.Task(jobs, String.join(" ", command), Quantity.of(cpu),
                Quantity.of(memory), gpu > 0 ? Quantity.of(gpu) : null, null, env.isEmpty() ? null : env,
                disk == null ? null : Quantity.of(disk), image, expectedDuration, timeLimit);
        return new OperationSpecBody(null, title, pool, tree == null ? null : List.of(tree), null, weight, null,
                maxFailedJobs, null, gang || !topology.isEmpty() ? Boolean.TRUE : null, null, null, null, null,
                topology.isEmpty() ? null : topology, Map.of("main", main), dependsOn());
    }

    private List<OperationSpecBody.DependencyBody> dependsOn() {
        List<OperationSpecBody.DependencyBody> out = new ArrayList<>();
        after.forEach(id -> out.add(new OperationSpecBody.DependencyBody(id, "completed")));
        afterAny.forEach(id -> out.add(new OperationSpecBody.DependencyBody(id, "finished")));
        return out.isEmpty() ? null : out;
    }
}
