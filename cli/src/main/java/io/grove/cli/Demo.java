package io.grove.cli;

import io.grove.api.OperationSpecBody;
import io.grove.api.OperationSummary;
import io.grove.api.Quantity;
import io.grove.cli.client.CliException;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.client.Target;
import java.io.PrintWriter;
import java.util.Map;

/** The operations {@code grove local --demo} submits: several users, several pools, long enough to watch. */
final class Demo {

    private Demo() {
    }

    /** A demo operation: who submits it, into which pool, how many jobs of what, and whether they are one gang. */
    record Submission(String user, String pool, int jobs, double cpu, String command, boolean gang) {
        Submission(String user, String pool, int jobs, double cpu, String command) {
            this(user, pool, jobs, cpu, command, false);
        }

        OperationSpecBody spec() {
            OperationSpecBody.Task task = new OperationSpecBody.Task(jobs, command, Quantity.of(cpu), Quantity.of("64Mi"),
                    null, null, null);
            String title = (gang ? "demo gang in " : "demo in ") + (pool == null ? "the user's pool" : pool);
            return new OperationSpecBody(null, title, pool, null, null, null, null, null, null, gang ? Boolean.TRUE : null,
                    null, null, null, null, null, Map.of("main", task));
        }

        String describe() {
            return gang ? "a gang of " + jobs + " ranks of " + cpu + " cpu, started together"
                    : jobs + " jobs of " + cpu + " cpu";
        }
    }

    static final Submission[] OPERATIONS = {
        new Submission("alice", "etl", 40, 0.25, "echo etl $GROVE_JOB_INDEX; sleep 20"),
        new Submission("bob", "analytics", 40, 0.25, "echo analytics $GROVE_JOB_INDEX; sleep 20"),
        new Submission("carol", null, 40, 0.25, "echo research $GROVE_JOB_INDEX; sleep 20"),
        new Submission("dave", "burst", 40, 0.25, "echo burst $GROVE_JOB_INDEX; sleep 10"),
        new Submission("erin", "serving-batch", 2, 0.25, "echo rank $RANK of $WORLD_SIZE, rank 0 at $MASTER_ADDR:$MASTER_PORT;"
                + " sleep 30", true),
    };

    static void submit(SchedulerClient base, PrintWriter out) {
        out.println();
        out.println("Demo: submitting operations into different pools ...");
        for (Submission submission : OPERATIONS) {
            SchedulerClient as = new SchedulerClient(new Target(base.target().scheduler(), submission.user(), "demo"));
            try {
                String id = as.post("/operations", submission.spec(), OperationSummary.class).id();
                out.println("  " + id + "  " + submission.user() + " -> " + (submission.pool() == null
                        ? "research/" + submission.user() + " (ephemeral)" : submission.pool()) + ": "
                        + submission.describe());
            } catch (CliException e) {
                out.println("  " + submission.user() + " -> " + submission.pool() + ": refused: " + e.getMessage());
            }
        }
        out.println("Watch them share the cluster: grove pools, grove ops list --all-users");
        out.flush();
    }
}
