package io.grove.cli;

import io.grove.api.Amounts;
import io.grove.api.ApiJson;
import io.grove.api.BrokerView;
import io.grove.agent.AgentSettings;
import io.grove.cli.client.CliException;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.client.Target;
import io.grove.core.resource.ResourceAmounts;
import java.io.PrintWriter;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code grove broker status}: a node's Resource Broker. */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Looks at a node's Resource Broker.",
        subcommands = {BrokerCommand.Status.class})
final class BrokerCommand {

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = {"Shows a node's broker: its queues (weight, limit, usage, real and planned consumption), "
                    + "its task types, every task, and the sensors the broker reads.",
                "",
                "Example: grove broker status --node 127.0.0.1:7078"})
    static final class Status implements Callable<Integer> {

        @Option(names = "--node", required = true, paramLabel = "HOST:PORT", description = "the agent's HTTP endpoint (port 7078 when not given)")
        String node;

        @Option(names = {"-o", "--output"}, defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
        String output;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            String address = node.startsWith("http") ? node : "http://" + node;
            if (address.indexOf(':', address.indexOf("//") + 2) < 0) {
                address += ":" + AgentSettings.DEFAULT_HTTP_PORT;
            }
            URI url = URI.create(address + "/api/v1/broker");
            BrokerView status;
            try {
                SchedulerClient client = new SchedulerClient(new Target(url, "grove", "--node"));
                status = client.getFrom(url, "the agent", BrokerView.class);
            } catch (CliException e) {
                err.println("grove broker status: " + e.getMessage());
                err.flush();
                return e.exitCode();
            }
            if (output.equals("json")) {
                out.println(ApiJson.write(status));
            } else {
                print(status, out);
            }
            out.flush();
            return 0;
        }

        static void print(BrokerView status, PrintWriter out) {
            out.printf(Locale.ROOT, "used %s of %s (node capacity for the broker %s); tasks of undeclared types: %d%n%n",
                    amounts(status.used()), amounts(status.resourceLimit()), amounts(status.nodeCapacity()),
                    status.missingTaskTypes());
            out.printf(Locale.ROOT, "%-28s %6s %-14s %-14s %12s %12s %7s %6s%n", "QUEUE", "WEIGHT", "LIMIT", "USED",
                    "REAL/W", "PLANNED/W", "WAITING", "IN FLY");
            for (BrokerView.Queue q : status.queues()) {
                out.printf(Locale.ROOT, "%-28s %6d %-14s %-14s %12.1f %12.1f %7d %6d%n", q.name(), q.weight(),
                        amounts(q.limit()), amounts(q.used()), q.realUsage(), q.plannedUsage(), q.waiting(), q.inFly());
            }
            out.printf(Locale.ROOT, "%n%-28s %-28s %10s %10s %9s%n", "TASK TYPE", "QUEUE", "DEFAULT", "PLANNED", "FINISHED");
            for (BrokerView.TaskType t : status.taskTypes()) {
                out.printf(Locale.ROOT, "%-28s %-28s %9dms %9dms %9d%n", t.name(), t.queue(), t.defaultDurationMs(),
                        t.plannedDurationMs(), t.finished());
            }
            List<BrokerView.Task> tasks = status.tasks();
            out.printf(Locale.ROOT, "%n%d task(s)%n", tasks.size());
            if (tasks.size() > 0) {
                out.printf(Locale.ROOT, "%-10s %8s %-24s %-26s %-8s %-14s %9s%n", "CLIENT", "ID", "NAME", "TYPE", "STATE",
                        "RESOURCES", "WAITED");
                for (BrokerView.Task t : tasks) {
                    out.printf(Locale.ROOT, "%-10s %8d %-24s %-26s %-8s %-14s %8dms%n", t.client(), t.taskId(), t.name(),
                            t.type(), t.state(), amounts(t.resources()), t.waitedMs());
                }
            }
        }

        private static String amounts(Amounts node) {
            StringBuilder text = new StringBuilder();
            if (node.cpu() != null) {
                text.append(String.format(Locale.ROOT, "%.3g cpu", node.cpu()));
            }
            if (node.memory() != null) {
                text.append(text.length() > 0 ? ", " : "").append(ResourceAmounts.formatBytes(node.memory()));
            }
            return text.length() == 0 ? "-" : text.toString();
        }
    }
}
