package io.grove.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Table;
import io.grove.core.resource.ResourceAmounts;
import io.grove.core.resource.ResourceType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code grove ops ...}: operations. */
@Command(name = "ops", mixinStandardHelpOptions = true, description = "Lists, shows, follows, changes and aborts operations.",
        subcommands = {OpsCommand.ListOps.class, OpsCommand.Get.class, OpsCommand.Abort.class, OpsCommand.Wait.class,
            OpsCommand.Update.class})
final class OpsCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
            description = {"Operations as a table, like squeue: by default your unfinished ones.",
                "--user filters by user (by default you); --all-users shows everyone's.",
                "REASON says why an operation waits (count limit, with its place in the queue) or why it gets "
                        + "less than its fair share (starving: waiting for preemption).",
                "",
                "Examples:",
                "  grove ops list",
                "  grove ops list --all-users --pool etl",
                "  grove ops list --state failed --all -o json"})
    static final class ListOps extends ClientCommand {

        @Option(names = "--state", description = "pending, running, completed, failed or aborted")
        String state;

        @Option(names = "--pool", description = "only this pool")
        String pool;

        @Option(names = "--tree", description = "only operations in this pool tree")
        String tree;

        @Option(names = "--all-users", description = "everyone's operations")
        boolean allUsers;

        @Option(names = {"-a", "--all"}, description = "finished ones too")
        boolean all;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            Map<String, String> query = new LinkedHashMap<>();
            if (state != null) {
                query.put("state", state);
            }
            if (pool != null) {
                query.put("pool", pool);
            }
            if (tree != null) {
                query.put("tree", tree);
            }
            if (!allUsers) {
                query.put("user", scheduler.target().user());
            }
            JsonNode found = scheduler.get("/operations" + queryString(query));
            List<JsonNode> ops = new ArrayList<>();
            for (JsonNode op : found) {
                String s = op.get("state").asText();
                if (all || state != null || s.equals("pending") || s.equals("running")) {
                    ops.add(op);
                }
            }
            if (printer.data(scheduler.json().valueToTree(ops))) {
                return ExitCodes.OK;
            }
            Table table = new Table(Table.text("ID"), Table.text("USER"), Table.text("POOL"), Table.text("STATE"),
                    Table.number("JOBS d/r/t"), Table.number("FAIR SHARE"), Table.number("USAGE"), Table.text("REASON"));
            for (JsonNode op : ops) {
                JsonNode p = op.get("progress");
                String jobs = p.get("completed").asInt() + "/" + p.get("running").asInt() + "/" + p.get("total").asInt();
                String s = op.get("state").asText();
                String[] row = {op.get("id").asText(), op.get("user").asText(), pools(op), s, jobs,
                    op.has("fair_share") ? Format.percent(op.get("fair_share").asDouble()) : "-",
                    op.has("usage_share") ? Format.percent(op.get("usage_share").asDouble()) : "-", reason(op)};
                String[] shown = row.clone();
                shown[3] = printer.style().state(s);
                table.row(row, shown);
            }
            if (ops.isEmpty()) {
                printer.println(all || allUsers ? "no operations" : "no unfinished operations of "
                        + scheduler.target().user() + " (see all with --all --all-users)");
                return ExitCodes.OK;
            }
            printer.print(table);
            return ExitCodes.OK;
        }
    }

    /** The pools an operation is in: {@code etl}, or {@code physical:etl,gpu:train} for several trees. */
    static String pools(JsonNode op) {
        JsonNode pools = op.get("pools");
        if (pools.size() == 1) {
            return pools.elements().next().asText();
        }
        List<String> parts = new ArrayList<>();
        pools.fields().forEachRemaining(e -> parts.add(e.getKey() + ":" + e.getValue().asText()));
        return String.join(",", parts);
    }

    /** Why an operation waits, or why it has less than its fair share; empty when neither. */
    static String reason(JsonNode op) {
        if (op.has("pending_reason")) {
            JsonNode r = op.get("pending_reason");
            if (!r.path("code").asText().equals("max_running_operation_count")) {
                return r.path("message").asText();
            }
            return "queued #" + (r.path("queue_position").asInt() + 1) + " in " + r.path("pool").asText()
                    + ": at max_running_operation_count " + r.path("limit").asInt();
        }
        String state = op.get("state").asText();
        if (!state.equals("running") || !op.has("fair_share")) {
            return op.has("fair_share") || !state.equals("running") ? "" : "waiting for the next fair-share update";
        }
        double fair = op.get("fair_share").asDouble();
        double usage = op.get("usage_share").asDouble();
        String starvation = op.path("starvation").asText("non_starving");
        if (!starvation.equals("non_starving")) {
            return starvation.replace('_', ' ') + ": below fair share, preemption may free room";
        }
        if (usage + 1e-9 < fair * 0.9 && op.get("progress").get("pending").asInt() > 0) {
            return "below fair share: waiting for free resources";
        }
        return "";
    }

    static String queryString(Map<String, String> query) {
        if (query.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        query.forEach((k, v) -> parts.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return "?" + String.join("&", parts);
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = {"Everything about one operation.",
        "", "Example: grove ops get op-17"})
    static final class Get extends ClientCommand {

        @Parameters(paramLabel = "ID")
        String id;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            JsonNode op = scheduler.get("/operations/" + id);
            if (printer.data(op)) {
                return ExitCodes.OK;
            }
            Table table = new Table(Table.text("FIELD"), Table.text("VALUE"));
            table.row("id", op.get("id").asText());
            table.row("title", op.path("title").asText(""));
            table.row("user", op.get("user").asText());
            table.row("state", op.get("state").asText());
            table.row("pools", pools(op));
            JsonNode p = op.get("progress");
            table.row("jobs", p.get("completed").asInt() + " completed, " + p.get("running").asInt() + " running, "
                    + p.get("pending").asInt() + " pending of " + p.get("total").asInt() + "; " + p.get("failed").asInt()
                    + " failed, " + p.get("aborted").asInt() + " aborted attempts");
            table.row("weight", Format.number(op.path("weight").asDouble(1)));
            if (op.has("fair_share")) {
                table.row("fair share", Format.percent(op.get("fair_share").asDouble()) + " of the tree (dominant resource)");
                table.row("usage", Format.percent(op.get("usage_share").asDouble()));
            }
            String reason = reason(op);
            if (!reason.isEmpty()) {
                table.row("reason", reason);
            }
            if (op.has("pending_reason")) {
                table.row("pending", op.get("pending_reason").get("message").asText());
            }
            table.row("submitted", op.path("submitted_at").asText());
            if (op.has("finished_at")) {
                table.row("finished", op.get("finished_at").asText());
            }
            if (op.has("message")) {
                table.row("message", op.get("message").asText());
            }
            op.path("trees").fields().forEachRemaining(e -> {
                JsonNode t = e.getValue();
                table.row("tree " + e.getKey(), "pool " + t.path("pool").asText() + ", usage " + resources(t.path("usage"))
                        + ", demand " + resources(t.path("demand")) + ", " + t.path("starvation").asText("-"));
            });
            printer.print(table);
            return ExitCodes.OK;
        }
    }

    /** {@code 4 cpu, 8Gi} from a resources object. */
    static String resources(JsonNode r) {
        List<String> parts = new ArrayList<>();
        if (r.path("cpu").asDouble() > 0) {
            parts.add(Format.cpu(r.get("cpu").asDouble()));
        }
        if (r.path("memory").asDouble() > 0) {
            parts.add(Format.bytes(r.get("memory").asDouble()));
        }
        if (r.path("gpu").asDouble() > 0) {
            parts.add(Format.number(r.get("gpu").asDouble()) + " gpu");
        }
        return parts.isEmpty() ? "0" : String.join(", ", parts);
    }

    @Command(name = "abort", mixinStandardHelpOptions = true, description = {"Aborts an operation: its jobs are killed.",
        "", "Example: grove ops abort op-17"})
    static final class Abort extends ClientCommand {

        @Parameters(paramLabel = "ID")
        String id;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            JsonNode op = scheduler.post("/operations/" + id + "/abort", null, null);
            if (!printer.data(op)) {
                printer.println(id + " aborted");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "wait", mixinStandardHelpOptions = true,
            description = {"Follows an operation until it ends; exits 0 when it completed, 1 when it failed or was aborted.",
                "", "Example: grove ops wait op-17"})
    static final class Wait extends ClientCommand {

        @Parameters(paramLabel = "ID")
        String id;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            return new Waiter(scheduler, printer, Grove.interactive()).await(id);
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = {"Changes a running operation's weight, resource limits or pool.",
                "",
                "Examples:",
                "  grove ops update op-17 --weight 2",
                "  grove ops update op-17 --pool batch --tree physical",
                "  grove ops update op-17 --limit cpu=20 --limit memory=64Gi"})
    static final class Update extends ClientCommand {

        @Parameters(paramLabel = "ID")
        String id;

        @Option(names = "--weight")
        Double weight;

        @Option(names = "--pool")
        String pool;

        @Option(names = "--tree", description = "the tree --pool is in (default: the operation's first)")
        String tree;

        @Option(names = "--limit", paramLabel = "RES=N", description = "a resource limit for all trees, e.g. cpu=20 (repeatable)")
        Map<String, String> limits = new LinkedHashMap<>();

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            ObjectNode body = scheduler.json().createObjectNode();
            if (weight != null) {
                body.put("weight", weight);
            }
            if (pool != null) {
                body.put("pool", pool);
            }
            if (tree != null) {
                body.put("tree", tree);
            }
            if (!limits.isEmpty()) {
                ObjectNode r = body.putObject("resource_limits");
                for (Map.Entry<String, String> limit : limits.entrySet()) {
                    ResourceType type = ResourceType.fromKey(limit.getKey()).orElse(null);
                    if (type == null) {
                        throw new CliException(ExitCodes.USAGE, "--limit: unknown resource '" + limit.getKey()
                                + "' (user_slots, cpu, gpu, memory, network)");
                    }
                    try {
                        r.put(type.key(), ResourceAmounts.parse(type, limit.getValue()));
                    } catch (IllegalArgumentException e) {
                        throw new CliException(ExitCodes.USAGE, "--limit " + limit.getKey() + ": " + e.getMessage());
                    }
                }
            }
            if (body.isEmpty()) {
                throw new CliException(ExitCodes.USAGE, "nothing to change: give --weight, --pool or --limit");
            }
            JsonNode op = scheduler.patch("/operations/" + id, body.toString());
            if (!printer.data(op)) {
                printer.println(id + " updated");
            }
            return ExitCodes.OK;
        }
    }
}
