package io.grove.server.accounting;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the CPU priority of the calling thread (Linux: {@code renice} of its thread id), for a
 * writer whose work may wait: on a machine whose cores are busy it then yields to the threads that
 * answer heartbeats instead of taking their turn. Where it cannot (no {@code /proc/thread-self}, no
 * {@code renice}), the thread keeps its priority and the reason is logged once.
 */
final class BackgroundPriority {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundPriority.class);
    /** The program, by absolute path, run with an empty environment. */
    static final String RENICE = "/usr/bin/renice";
    /** How much lower than the daemon's other threads. */
    static final int NICE = 10;

    private BackgroundPriority() {
    }

    /** Lowers the calling thread's priority; whether it did. */
    static boolean lower() {
        try {
            // "/proc/thread-self" links to "PID/task/TID" of the thread that reads it
            String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
            if (!tid.chars().allMatch(Character::isDigit) || !Files.isExecutable(Path.of(RENICE))) {
                LOG.info("accounting: the ledger's writer keeps its CPU priority (no thread id or no {})", RENICE);
                return false;
            }
            ProcessBuilder renice = new ProcessBuilder(RENICE, "-n", String.valueOf(NICE), "-p", tid)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            renice.environment().clear();
            Process process = renice.start();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException | UnsupportedOperationException e) {
            LOG.info("accounting: the ledger's writer keeps its CPU priority ({})", e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
