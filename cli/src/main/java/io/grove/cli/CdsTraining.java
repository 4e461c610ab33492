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
import io.grove.cli.out.Printer;
import io.grove.cli.out.Style;
import io.grove.cli.out.Table;
import io.grove.http.DaemonThreads;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * What the launcher runs once to make the class-data archive short commands start from
 * ({@code bin/grove-jvm-options}): it runs the commonest commands against a stand-in scheduler of
 * its own on loopback (answers of {@code []} and {@code {}}), so that the archive holds what they
 * load — the command line's parsing, the HTTP connection, the API's records as the commands read
 * them, the tables — and talks to no one else.
 */
@Command(name = "cds-training", hidden = true, description = "loads the classes short commands use, for the launcher")
final class CdsTraining implements Callable<Integer> {

    static final List<Class<?>> RECORDS = List.of(OperationSummary.class, OperationDetails.class, JobView.class,
            NodeView.class, PoolView.class, PoolTreeView.class, Explanation.class, UsageReport.class, JobRecordView.class,
            StateEvent.class, ConfigView.class);

    /** The commands run against the stand-in. */
    static final List<List<String>> COMMANDS = List.of(List.of("ops", "list"), List.of("ops", "get", "op-1"),
            List.of("nodes"), List.of("pools"), List.of("jobs", "list", "op-1"), List.of("usage"));

    /** The stand-in's answers that are lists, by the path's last part. */
    private static final Set<String> LISTS = Set.of("operations", "nodes", "jobs", "pool_trees");

    @Override
    public Integer call() throws IOException {
        train();
        return 0;
    }

    /** Runs the training; the request lines its stand-in answered. */
    static List<String> train() throws IOException {
        List<String> asked = Collections.synchronizedList(new ArrayList<>());
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            DaemonThreads.start("cds-training-scheduler", () -> answer(server, asked));
            String url = "http://127.0.0.1:" + server.getLocalPort();
            PrintWriter none = new PrintWriter(Writer.nullWriter());
            for (List<String> command : COMMANDS) {
                List<String> args = new ArrayList<>(command);
                args.addAll(List.of("--scheduler", url, "--user", "cds-training"));
                Grove.run(none, none, args.toArray(String[]::new));
            }
        }
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
        return asked;
    }

    /** The stand-in: each request gets {@code []} when its path names a list, else {@code {}}, and is closed. */
    private static void answer(ServerSocket server, List<String> asked) {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
                String requestLine = in.readLine();
                asked.add(requestLine);
                for (String header = in.readLine(); header != null && !header.isEmpty(); header = in.readLine()) {
                    // the headers are not read
                }
                String path = requestLine == null ? "" : requestLine.split(" ")[1].split("\\?")[0];
                String body = LISTS.contains(path.substring(path.lastIndexOf('/') + 1)) ? "[]" : "{}";
                OutputStream out = socket.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException | RuntimeException e) {
                // the training goes on without this answer
            }
        }
    }
}
