package io.grove.cli;

import io.grove.api.Amounts;
import io.grove.api.ApiJson;
import io.grove.api.GangView;
import io.grove.api.OperationDetails;
import io.grove.api.OperationSummary;
import io.grove.api.OperationUpdate;
import io.grove.api.PendingReason;
import io.grove.api.Progress;
import io.grove.api.Quantities;
import io.grove.api.Quantity;
import io.grove.api.ReservationView;
import io.grove.api.StateEvent;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code grove ops ...}: operations. */
@Command(name = "ops", mixinStandardHelpOptions = true, description = "Lists, shows, follows, changes and aborts operations.",
        subcommands = {OpsCommand.ListOps.class, OpsCommand.Get.class, ExplainCommand.class, OpsCommand.Abort.class,
            OpsCommand.Wait.class, OpsCommand.Watch.class, OpsCommand.Update.class})
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
                "START says when its next waiting job should start (predicted by running the scheduler forward; "
                        + "grove ops explain says what that assumed).",
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

        @Option(names = "--limit", paramLabel = "N", defaultValue = "10000",
                description = "read at most N operations (default: ${DEFAULT-VALUE}); says so when there are more")
        int limit;

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
            query.put("forecast", "true");
            if (limit < 1) {
                throw new CliException(ExitCodes.USAGE, "--limit must be at least 1, got " + limit);
            }
            List<OperationSummary> ops = new ArrayList<>();
            SchedulerClient.Page<OperationSummary> page = scheduler.list("/operations" + queryString(query),
                    OperationSummary.class, limit);
            for (OperationSummary op : page.items()) {
                if (all || state != null || !op.finished()) {
                    ops.add(op);
                }
            }
            if (page.more()) {
                printer.warn("only the first " + limit + " operations were read; there are more (--limit N reads more,"
                        + " --state, --pool or --tree narrow the list)");
            }
            if (printer.data(ops)) {
                return ExitCodes.OK;
            }
            Table table = new Table(Table.text("ID"), Table.text("USER"), Table.text("POOL"), Table.text("STATE"),
                    Table.number("JOBS d/r/t"), Table.number("FAIR SHARE"), Table.number("USAGE"), Table.text("START"),
                    Table.text("REASON"));
            Instant now = Instant.now();
            for (OperationSummary op : ops) {
                Progress p = op.progress();
                String jobs = p.completed() + "/" + p.running() + "/" + p.total();
                String[] row = {op.id(), op.user(), pools(op), op.state(), jobs,
                    op.fairShare() != null ? Format.percent(op.fairShare()) : "-",
                    op.usageShare() != null ? Format.percent(op.usageShare()) : "-", start(op, now), reason(op)};
                String[] shown = row.clone();
                shown[3] = printer.style().state(op.state());
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

    /** When its next waiting job should start ({@code in ~4m}, {@code now}), or {@code -}. */
    static String start(OperationSummary op, Instant now) {
        if (op.expectedStart() == null) {
            return "-";
        }
        Duration left = Duration.between(now, Instant.parse(op.expectedStart()));
        return left.toSeconds() <= 0 ? "now" : "~" + Format.duration(left);
    }

    /** The pools an operation is in: {@code etl}, or {@code physical:etl,gpu:train} for several trees. */
    static String pools(OperationSummary op) {
        if (op.pools().size() == 1) {
            return op.pools().values().iterator().next();
        }
        List<String> parts = new ArrayList<>();
        op.pools().forEach((tree, pool) -> parts.add(tree + ":" + pool));
        return String.join(",", parts);
    }

    /** Why an operation waits, or why it has less than its fair share; empty when neither. */
    static String reason(OperationSummary op) {
        PendingReason r = op.pendingReason();
        if (r != null) {
            if (!PendingReason.COUNT_LIMIT.equals(r.code())) {
                return r.message();
            }
            return "queued #" + r.queuePosition() + " in " + r.pool() + ": at max_running_operation_count "
                    + r.limit();
        }
        return op.shortfall() == null ? "" : op.shortfall().message();
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
            OperationDetails details = scheduler.get("/operations/" + id, OperationDetails.class);
            if (printer.data(details)) {
                return ExitCodes.OK;
            }
            OperationSummary op = details.summary();
            Table table = new Table(Table.text("FIELD"), Table.text("VALUE"));
            table.row("id", op.id());
            table.row("title", op.title() == null ? "" : op.title());
            table.row("user", op.user());
            table.row("state", op.state());
            table.row("pools", pools(op));
            Progress p = op.progress();
            table.row("jobs", p.completed() + " completed, " + p.running() + " running, " + p.pending() + " pending of "
                    + p.total() + "; " + p.failed() + " failed, " + p.aborted() + " aborted attempts");
            table.row("weight", Format.number(details.weight()));
            if (op.fairShare() != null) {
                table.row("fair share", Format.percent(op.fairShare()) + " of the tree (dominant resource)");
                table.row("usage", Format.percent(op.usageShare()));
            }
            String reason = reason(op);
            if (!reason.isEmpty()) {
                table.row("reason", reason);
            }
            if (op.pendingReason() != null) {
                table.row("pending", op.pendingReason().message());
            }
            table.row("submitted", op.submittedAt());
            if (op.finishedAt() != null) {
                table.row("finished", op.finishedAt());
            }
            if (details.message() != null) {
                table.row("message", details.message());
            }
            GangView gang = details.gang();
            if (gang != null) {
                table.row("gang", gang.state() + ": " + gang.size() + " ranks, topology " + gang.topology()
                        + (gang.domain() == null ? "" : ", in " + gang.domain())
                        + (gang.masterNode() == null ? "" : "; rank 0 on " + gang.masterNode() + " port " + gang.masterPort())
                        + (gang.waiting() == null ? "" : "; " + gang.waiting()));
                if (gang.reservation() != null) {
                    ReservationView held = gang.reservation();
                    table.row("reservation", (held.domain() == null ? "" : held.domain() + " ") + "(node"
                            + (held.nodes().size() == 1 ? " " : "s ") + String.join(", ", held.nodes().keySet()) + ") since "
                            + held.since() + ", predicted start " + (held.predictedStart() == null
                                    ? "unknown (a job in its way has no time limit)" : held.predictedStart()));
                } else if (gang.starvingSince() != null) {
                    table.row("starving", "for room since " + gang.starvingSince());
                }
                if (gang.ranks() != null) {
                    for (GangView.Rank rank : gang.ranks()) {
                        table.row("rank " + rank.rank(), rank.node() + (rank.jobId() == null ? ", not started" : ", " + rank.jobId()));
                    }
                }
            }
            details.trees().forEach((tree, t) -> table.row("tree " + tree, "pool " + t.pool() + ", usage "
                    + resources(t.usage()) + ", demand " + resources(t.demand()) + ", "
                    + (t.starvation() == null ? "-" : t.starvation())));
            printer.print(table);
            return ExitCodes.OK;
        }
    }

    /** {@code 4 cpu, 8Gi} from a resources object. */
    static String resources(Amounts r) {
        List<String> parts = new ArrayList<>();
        if (r.get("cpu", 0) > 0) {
            parts.add(Format.cpu(r.cpu()));
        }
        if (r.get("memory", 0) > 0) {
            parts.add(Format.bytes(r.memory()));
        }
        if (r.get("gpu", 0) > 0) {
            parts.add(Format.number(r.gpu()) + " gpu");
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
            OperationSummary op = scheduler.post("/operations/" + id + "/abort", null, null, OperationSummary.class);
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

    @Command(name = "watch", mixinStandardHelpOptions = true,
            description = {"Prints what happens to an operation (or to every operation, or a pool's) as it happens: "
                    + "submitted, each job started and ended, finished. With an ID it exits when the operation ends "
                    + "(0 when it completed, 1 when it failed or was aborted); without one, on Ctrl-C.",
                "",
                "Examples:",
                "  grove ops watch op-17",
                "  grove ops watch --pool research",
                "  grove ops watch -o json      # one StateEvent per line"})
    static final class Watch extends ClientCommand {

        @Parameters(paramLabel = "ID", arity = "0..1")
        String id;

        @Option(names = "--pool", description = "only operations in this pool and the pools below it")
        String pool;

        @Override
        int execute(SchedulerClient scheduler, Printer printer) throws CliException {
            BlockingQueue<String> events = new LinkedBlockingQueue<>();
            StringBuilder query = new StringBuilder();
            if (id != null) {
                // from the first event the scheduler keeps: what happened to it before this connected too
                query.append("?operation=").append(URLEncoder.encode(id, StandardCharsets.UTF_8)).append("&last_event_id=0");
            }
            if (pool != null) {
                query.append(query.length() == 0 ? "?" : "&").append("pool=")
                        .append(URLEncoder.encode(pool, StandardCharsets.UTF_8));
            }
            // the operation first, so that one that ended already is not waited for
            OperationSummary before = id == null ? null : scheduler.get("/operations/" + id, OperationSummary.class);
            try (AutoCloseable feed = scheduler.events(query.toString(), events::add)) {
                if (feed == null) {
                    throw new CliException(ExitCodes.FAILED, "the scheduler has no event stream (GET /api/v1/events); "
                            + "follow the operation with 'grove ops wait'");
                }
                if (before != null && before.finished()) {
                    printer.println(id + " " + before.state());
                    return before.state().equals("completed") ? ExitCodes.OK : ExitCodes.FAILED;
                }
                while (true) {
                    String data = events.take();
                    StateEvent event = ApiJson.read(data, StateEvent.class);
                    if (event.type() == null) {
                        // "reset": its first events are no longer kept; what follows is live
                        continue;
                    }
                    if (!printer.record(event)) {
                        printer.println(describe(event));
                    }
                    printer.writer().flush();
                    if (id != null && event.type().equals("operation") && !event.state().equals("pending")) {
                        return event.state().equals("completed") ? ExitCodes.OK : ExitCodes.FAILED;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitCodes.FAILED;
            } catch (CliException e) {
                throw e;
            } catch (Exception e) {
                throw new CliException(ExitCodes.FAILED, "the event stream failed: " + e.getMessage());
            }
        }

        /** {@code 06:32:01  op-17-3  failed on node-2 (failed: exit code 2)}. */
        static String describe(StateEvent event) {
            String at = event.at() == null ? "" : event.at().length() >= 19 ? event.at().substring(11, 19) : event.at();
            String what = event.type().equals("job") ? event.jobId() : event.operationId();
            StringBuilder line = new StringBuilder(at).append("  ").append(what).append("  ");
            line.append(event.type().equals("operation") && event.state().equals("pending")
                    ? "submitted by " + event.user() + " to " + event.pool()
                    : event.type().equals("gang") ? "gang " + event.state() : event.state());
            if (event.node() != null) {
                line.append(" on ").append(event.node());
            }
            if (event.reason() != null || event.message() != null) {
                line.append(" (").append(event.reason() == null ? "" : event.reason())
                        .append(event.reason() != null && event.message() != null && !event.message().isEmpty() ? ": " : "")
                        .append(event.message() == null ? "" : event.message()).append(')');
            }
            return line.toString();
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
            Map<String, Quantity> resourceLimits = new LinkedHashMap<>();
            if (!limits.isEmpty()) {
                for (Map.Entry<String, String> limit : limits.entrySet()) {
                    ResourceType type = ResourceType.fromKey(limit.getKey()).orElse(null);
                    if (type == null) {
                        throw new CliException(ExitCodes.USAGE, "--limit: unknown resource '" + limit.getKey()
                                + "' (user_slots, cpu, gpu, memory, network)");
                    }
                    try {
                        resourceLimits.put(type.key(), Quantity.of(ResourceAmounts.parse(type, limit.getValue())));
                    } catch (IllegalArgumentException e) {
                        throw new CliException(ExitCodes.USAGE, "--limit " + limit.getKey() + ": " + e.getMessage());
                    }
                }
            }
            OperationUpdate body = new OperationUpdate(weight,
                    resourceLimits.isEmpty() ? null : Quantities.of(resourceLimits), pool, tree);
            if (body.isEmpty()) {
                throw new CliException(ExitCodes.USAGE, "nothing to change: give --weight, --pool or --limit");
            }
            OperationDetails op = scheduler.patch("/operations/" + id, body, OperationDetails.class);
            if (!printer.data(op)) {
                printer.println(id + " updated");
            }
            return ExitCodes.OK;
        }
    }
}
