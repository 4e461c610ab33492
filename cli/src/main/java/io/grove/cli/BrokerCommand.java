package io.grove.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.agent.AgentSettings;
import io.grove.cli.client.CliException;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.client.Target;
import io.grove.core.resource.ResourceAmounts;
import java.io.PrintWriter;
import java.net.URI;
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
            JsonNode status;
            try {
                SchedulerClient client = new SchedulerClient(new Target(url, "grove", "--node"));
                status = client.getFrom(url, "the agent");
            } catch (CliException e) {
                err.println("grove broker status: " + e.getMessage());
                err.flush();
                return e.exitCode();
            }
            if (output.equals("json")) {
                out.println(status.toPrettyString());
            } else {
                print(status, out);
            }
            out.flush();
            return 0;
        }

        static void print(JsonNode status, PrintWriter out) {
            out.printf(Locale.ROOT, "used %s of %s (node capacity for the broker %s); tasks of undeclared types: %d%n%n",
                    amounts(status.get("used")), amounts(status.get("resource_limit")), amounts(status.get("node_capacity")),
                    status.get("missing_task_types").asLong());
            out.printf(Locale.ROOT, "%-28s %6s %-14s %-14s %12s %12s %7s %6s%n", "QUEUE", "WEIGHT", "LIMIT", "USED",
                    "REAL/W", "PLANNED/W", "WAITING", "IN FLY");
            for (JsonNode q : status.get("queues")) {
                out.printf(Locale.ROOT, "%-28s %6d %-14s %-14s %12.1f %12.1f %7d %6d%n", q.get("name").asText(),
                        q.get("weight").asLong(), amounts(q.get("limit")), amounts(q.get("used")),
                        q.get("real_usage").asDouble(), q.get("planned_usage").asDouble(), q.get("waiting").asInt(),
                        q.get("in_fly").asInt());
            }
            out.printf(Locale.ROOT, "%n%-28s %-28s %10s %10s %9s%n", "TASK TYPE", "QUEUE", "DEFAULT", "PLANNED", "FINISHED");
            for (JsonNode t : status.get("task_types")) {
                out.printf(Locale.ROOT, "%-28s %-28s %9dms %9dms %9d%n", t.get("name").asText(), t.get("queue").asText(),
                        t.get("default_duration_ms").asLong(), t.get("planned_duration_ms").asLong(),
                        t.get("finished").asLong());
            }
            JsonNode tasks = status.get("tasks");
            out.printf(Locale.ROOT, "%n%d task(s)%n", tasks.size());
            if (tasks.size() > 0) {
                out.printf(Locale.ROOT, "%-10s %8s %-24s %-26s %-8s %-14s %9s%n", "CLIENT", "ID", "NAME", "TYPE", "STATE",
                        "RESOURCES", "WAITED");
                for (JsonNode t : tasks) {
                    out.printf(Locale.ROOT, "%-10s %8d %-24s %-26s %-8s %-14s %8dms%n", t.get("client").asText(),
                            t.get("task_id").asLong(), t.get("name").asText(), t.get("type").asText(),
                            t.get("state").asText(), amounts(t.get("resources")), t.get("waited_ms").asLong());
                }
            }
        }

        private static String amounts(JsonNode node) {
            StringBuilder text = new StringBuilder();
            if (node.has("cpu")) {
                text.append(String.format(Locale.ROOT, "%.3g cpu", node.get("cpu").asDouble()));
            }
            if (node.has("memory")) {
                text.append(text.length() > 0 ? ", " : "").append(
                        ResourceAmounts.formatBytes(node.get("memory").asDouble()));
            }
            return text.length() == 0 ? "-" : text.toString();
        }
    }
}
