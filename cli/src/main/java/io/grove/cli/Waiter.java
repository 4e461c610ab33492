package io.grove.cli;

import io.grove.api.OperationDetails;
import io.grove.api.OperationSummary;
import io.grove.api.Progress;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.out.Format;
import io.grove.cli.out.Printer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Follows an operation until it ends. On a terminal a progress bar is redrawn in place
 * (completed / running / pending jobs and the operation's fair share and usage of its tree);
 * otherwise a line is printed whenever the numbers change. The operation is read again as soon as
 * its event stream ({@code GET /api/v1/events?operation=ID}) says something happened to it, and
 * every few seconds for its shares; a scheduler without the stream is asked every half second.
 * Exit code 0 when it completed, 1 when it failed or was aborted.
 */
final class Waiter {

    static final long POLL_MS = 500;
    /** With the event stream: how often the shares are read again without an event (a bar, or lines). */
    static final long LIVE_REFRESH_MS = 1_000;
    static final long QUIET_REFRESH_MS = 5_000;
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
        Semaphore changed = new Semaphore(0);
        AutoCloseable feed = scheduler.events("?operation=" + URLEncoder.encode(id,
                StandardCharsets.UTF_8), event -> changed.release());
        try {
            return follow(id, changed, feed != null);
        } finally {
            if (feed != null) {
                try {
                    feed.close();
                } catch (Exception e) {
                    // the stream is gone already
                }
            }
        }
    }

    private int follow(String id, Semaphore changed, boolean streaming) throws CliException {
        String last = null;
        while (true) {
            OperationDetails details = scheduler.get("/operations/" + id, OperationDetails.class);
            OperationSummary op = details.summary();
            String state = op.state();
            String line = line(op);
            boolean done = op.finished();
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
                String message = details.message() == null ? "" : details.message();
                printer.println(id + " " + state + (message.isEmpty() ? "" : ": " + message));
                return state.equals("completed") ? ExitCodes.OK : ExitCodes.FAILED;
            }
            try {
                if (streaming) {
                    changed.tryAcquire(live ? LIVE_REFRESH_MS : QUIET_REFRESH_MS, TimeUnit.MILLISECONDS);
                    changed.drainPermits();
                } else {
                    Thread.sleep(POLL_MS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.FAILED, "interrupted while waiting for " + id);
            }
        }
    }

    /** {@code [#########.....................]  9/30 done, 4 running, 17 pending · fair share 12%, usage 10%}. */
    static String line(OperationSummary op) {
        Progress p = op.progress();
        long total = p.total();
        long done = p.completed();
        long running = p.running();
        long pending = p.pending();
        int filled = total == 0 ? 0 : (int) Math.round((double) BAR * done / total);
        int busy = total == 0 ? 0 : Math.min(BAR - filled, (int) Math.round((double) BAR * running / total));
        StringBuilder line = new StringBuilder("[").append("#".repeat(filled)).append(">".repeat(busy))
                .append(".".repeat(BAR - filled - busy)).append("] ");
        line.append(String.format(Locale.ROOT, "%d/%d done, %d running, %d pending", done, total, running, pending));
        long failed = p.failed() + p.aborted();
        if (failed > 0) {
            line.append(", ").append(failed).append(" retried");
        }
        if (op.fairShare() != null) {
            line.append(" · fair share ").append(Format.percent(op.fairShare()))
                    .append(", usage ").append(Format.percent(op.usageShare() == null ? 0 : op.usageShare()));
        }
        if (op.pendingReason() != null) {
            line.append(" · ").append(op.pendingReason().message());
        }
        line.append(" · ").append(op.state());
        return line.toString();
    }
}
