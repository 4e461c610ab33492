package io.grove.cli;

import io.grove.api.OperationSpecBody;
import io.grove.api.OperationSummary;
import io.grove.api.Quantity;
import io.grove.cli.client.CliException;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.client.Target;
import java.io.PrintWriter;

/** The operations {@code grove local --demo} submits: several users, several pools, long enough to watch. */
final class Demo {

    private Demo() {
    }

    /** A demo operation: who submits it, into which pool, how many jobs of what. */
    record Submission(String user, String pool, int jobs, double cpu, String command) {
        OperationSpecBody spec() {
            return OperationSpecBody.of("demo in " + (pool == null ? "the user's pool" : pool), pool,
                    new OperationSpecBody.Task(jobs, command, Quantity.of(cpu), Quantity.of("64Mi"), null, null, null));
        }
    }

    static final Submission[] OPERATIONS = {
        new Submission("alice", "etl", 40, 0.25, "echo etl $GROVE_JOB_INDEX; sleep 20"),
        new Submission("bob", "analytics", 40, 0.25, "echo analytics $GROVE_JOB_INDEX; sleep 20"),
        new Submission("carol", null, 40, 0.25, "echo research $GROVE_JOB_INDEX; sleep 20"),
        new Submission("dave", "burst", 40, 0.25, "echo burst $GROVE_JOB_INDEX; sleep 10"),
    };

    static void submit(SchedulerClient base, PrintWriter out) {
        out.println();
        out.println("Demo: submitting operations into different pools ...");
        for (Submission submission : OPERATIONS) {
            SchedulerClient as = new SchedulerClient(new Target(base.target().scheduler(), submission.user(), "demo"));
            try {
                String id = as.post("/operations", submission.spec(), OperationSummary.class).id();
                out.println("  " + id + "  " + submission.user() + " -> " + (submission.pool() == null
                        ? "research/" + submission.user() + " (ephemeral)" : submission.pool()) + ": " + submission.jobs()
                        + " jobs of " + submission.cpu() + " cpu");
            } catch (CliException e) {
                out.println("  " + submission.user() + " -> " + submission.pool() + ": refused: " + e.getMessage());
            }
        }
        out.println("Watch them share the cluster: grove pools, grove ops list --all-users");
        out.flush();
    }
}
