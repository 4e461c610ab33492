package io.grove.cli;

import io.grove.api.ApiJson;
import io.grove.api.ConfigView;
import io.grove.api.Explanation;
import io.grove.api.JobRecordView;
import io.grove.api.JobView;
import io.grove.api.NodeView;
import io.grove.api.OperationDetails;
import io.grove.api.OperationSummary;
import io.grove.api.PoolTreeView;
import io.grove.api.PoolView;
import io.grove.api.StateEvent;
import io.grove.api.UsageReport;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.client.Target;
import io.grove.cli.out.Printer;
import io.grove.cli.out.Style;
import io.grove.cli.out.Table;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * What the launcher runs once to make the class-data archive short commands start from
 * ({@code bin/grove-jvm-options}): it loads what they load — the HTTP client, the API's records as
 * the commands read them, a table — and talks to no one.
 */
@Command(name = "cds-training", hidden = true, description = "loads the classes short commands use, for the launcher")
final class CdsTraining implements Callable<Integer> {

    static final List<Class<?>> RECORDS = List.of(OperationSummary.class, OperationDetails.class, JobView.class,
            NodeView.class, PoolView.class, PoolTreeView.class, Explanation.class, UsageReport.class, JobRecordView.class,
            StateEvent.class, ConfigView.class);

    @Override
    public Integer call() {
        new SchedulerClient(new Target(URI.create("http://127.0.0.1:1"), "training", "cds-training"));
        for (Class<?> record : RECORDS) {
            try {
                ApiJson.read("{}", record);
                ApiJson.read("[{}]", record.arrayType());
            } catch (RuntimeException e) {
                // what matters is the classes it loaded
            }
        }
        Printer printer = new Printer(new PrintWriter(Writer.nullWriter()), "table", Style.PLAIN);
        Table table = new Table(Table.text("ID"), Table.number("CPU"));
        table.row(new String[] {"op-1", "1 cpu"}, new String[] {"op-1", "1 cpu"});
        printer.print(table);
        return 0;
    }
}
