package io.grove.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import java.util.Locale;

/**
 * Follows an operation until it ends. On a terminal a progress bar is redrawn in place
 * (completed / running / pending jobs and the operation's fair share and usage of its tree);
 * otherwise a line is printed whenever the numbers change. Exit code 0 when it completed, 1 when
 * it failed or was aborted.
 */
final class Waiter {

    static final long POLL_MS = 500;
    static final int BAR = 30;

    private final SchedulerClient scheduler;
    private final Printer printer;
    private final boolean live;

    Waiter(SchedulerClient scheduler, Printer printer, boolean live) {
        this.scheduler = scheduler;
        this.printer = printer;
        this.live = live;
    }

    int await(String id) throws CliException {
        String last = null;
        while (true) {
            JsonNode op = scheduler.get("/operations/" + id);
            String state = op.get("state").asText();
            String line = line(op);
            boolean done = state.equals("completed") || state.equals("failed") || state.equals("aborted");
            if (live) {
                printer.writer().print("\r" + line + "\u001b[K");
                printer.writer().flush();
            } else if (!line.equals(last)) {
                printer.println(line);
            }
            last = line;
            if (done) {
                if (live) {
                    printer.println("");
                }
                JsonNode full = op;
                String message = full.path("message").asText("");
                printer.println(id + " " + state + (message.isEmpty() ? "" : ": " + message));
                return state.equals("completed") ? ExitCodes.OK : ExitCodes.FAILED;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.FAILED, "interrupted while waiting for " + id);
            }
        }
    }

    /** {@code [#########.....................]  9/30 done, 4 running, 17 pending · fair share 12%, usage 10%}. */
    static String line(JsonNode op) {
        JsonNode p = op.get("progress");
        int total = p.get("total").asInt();
        int done = p.get("completed").asInt();
        int running = p.get("running").asInt();
        int pending = p.get("pending").asInt();
        int filled = total == 0 ? 0 : (int) Math.round((double) BAR * done / total);
        int busy = total == 0 ? 0 : Math.min(BAR - filled, (int) Math.round((double) BAR * running / total));
        StringBuilder line = new StringBuilder("[").append("#".repeat(filled)).append(">".repeat(busy))
                .append(".".repeat(BAR - filled - busy)).append("] ");
        line.append(String.format(Locale.ROOT, "%d/%d done, %d running, %d pending", done, total, running, pending));
        int failed = p.path("failed").asInt() + p.path("aborted").asInt();
        if (failed > 0) {
            line.append(", ").append(failed).append(" retried");
        }
        if (op.has("fair_share")) {
            line.append(" · fair share ").append(Format.percent(op.get("fair_share").asDouble()))
                    .append(", usage ").append(Format.percent(op.path("usage_share").asDouble()));
        }
        if (op.has("pending_reason")) {
            line.append(" · ").append(op.get("pending_reason").path("message").asText());
        }
        line.append(" · ").append(op.get("state").asText());
        return line.toString();
    }
}
