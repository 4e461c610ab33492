package io.grove.server;

import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.operation.ReloadRefusedException;
import io.grove.core.pool.ConfigProblem;
import io.grove.core.pool.PoolsConfig;
import io.grove.http.DaemonThreads;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.metrics.SchedulerMetrics;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Reloads the pools file: on a change of the file (watched), on SIGHUP, or on request. The file
 * goes through the same loader as {@code grove config validate}; a valid one is applied whole on
 * the scheduler's thread, an invalid one (or one that removes pools in use) is refused whole and
 * the running configuration stays. The last outcome is kept for the API.
 */
public final class ConfigReloader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigReloader.class);

    /** The outcome of the last load or reload. */
    public record Status(Instant at, boolean applied, String message, List<ConfigProblem> problems) {
    }

    private final Path file;
    private final SchedulerLoop loop;
    private final SchedulerMetrics metrics;
    private final Clock clock;
    private volatile PoolsConfig current;
    private volatile String currentText;
    private volatile Status status;
    private WatchService watcher;
    private Thread watchThread;

    public ConfigReloader(Path file, PoolsConfig initial, String initialText, SchedulerLoop loop, SchedulerMetrics metrics,
            Clock clock) {
        this.file = file;
        this.current = initial;
        this.currentText = initialText;
        this.loop = loop;
        this.metrics = metrics;
        this.clock = clock;
        this.status = new Status(clock.now(), true, "loaded at start", List.of());
    }

    public Path file() {
        return file;
    }

    public PoolsConfig current() {
        return current;
    }

    public String currentText() {
        return currentText;
    }

    public Status status() {
        return status;
    }

    /** Reloads run one at a time, on a thread of their own. */
    private final ExecutorService reloads = Executors.newSingleThreadExecutor(DaemonThreads.named("grove-config-reload"));

    /**
     * Reads the file again and applies it, or refuses it whole. Reloads run one at a time; no
     * input (however malformed) makes one fail without a refusal, or stops later ones.
     */
    public CompletableFuture<Status> reload(String trigger) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return reloadNow(trigger);
            } catch (RuntimeException | StackOverflowError e) {
                LOG.error("pool configuration reload ({}) failed", trigger, e);
                return refused("the reload failed: " + e, List.of(), trigger);
            }
        }, reloads);
    }

    private Status reloadNow(String trigger) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            return refused("cannot read " + file + ": " + e.getMessage(), List.of(), trigger);
        }
        LoadResult<PoolsConfig> loaded = PoolsConfigLoader.load(text, file.toString());
        if (!loaded.ok()) {
            return refused(loaded.problems().size() + " problem(s) in " + file + ":\n" + loaded.describe(),
                    loaded.problems(), trigger);
        }
        return loop.call(cluster -> {
            try {
                cluster.reconfigure(loaded.value());
                Status done = new Status(clock.now(), true, "applied " + file + " (" + trigger + ")", List.of());
                status = done;
                current = loaded.value();
                currentText = text;
                metrics.reload(true);
                LOG.info("pool configuration reloaded from {} ({}): trees {}", file, trigger, loaded.value().trees().keySet());
                return done;
            } catch (ReloadRefusedException e) {
                return refused(e.getMessage(), List.of(), trigger);
            }
        }).join();
    }

    private Status refused(String message, List<ConfigProblem> problems, String trigger) {
        Status refused = new Status(clock.now(), false, "refused (" + trigger + "), the running configuration stays: "
                + message, problems);
        status = refused;
        metrics.reload(false);
        LOG.warn("pool configuration reload refused ({}): {}", trigger, message);
        return refused;
    }

    /** Watches the file's directory and reloads when the file changes; installs a SIGHUP handler where possible. */
    public void watch() throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        watcher = FileSystems.getDefault().newWatchService();
        directory.register(watcher, StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_CREATE);
        watchThread = DaemonThreads.start("grove-config-watch", () -> {
            try {
                while (true) {
                    WatchKey key = watcher.take();
                    boolean ours = key.pollEvents().stream()
                            .anyMatch(event -> file.getFileName().equals(event.context()));
                    key.reset();
                    if (ours) {
                        Thread.sleep(100); // let the editor finish writing
                        reload("file changed");
                    }
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            SignalHandler before = Signal.handle(new Signal("HUP"), signal -> reload("SIGHUP"));
            if (before == SignalHandler.SIG_IGN) {
                // started with SIGHUP ignored (nohup): the JVM keeps it so, and a SIGHUP would be lost without a word
                LOG.warn("SIGHUP is ignored in this process (started under nohup?), so it cannot reload the pools file; "
                        + "the file is reloaded when it changes, or with POST /api/v1/config/reload");
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            LOG.info("SIGHUP reload is not available here: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        reloads.shutdownNow();
        try {
            if (watcher != null) {
                watcher.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
