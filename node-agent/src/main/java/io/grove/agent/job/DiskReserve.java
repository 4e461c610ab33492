package io.grove.agent.job;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Room on the work directory's filesystem that only the agent may use: a file of
 * {@code --disk-reserve} bytes, written out (not sparse) so its blocks are really taken. When a job
 * has filled the disk and the agent cannot write a result, a record or a log, the file is given up
 * and the write tried again, once the jobs above their disk are stopped (no job takes the room); it
 * is made again once the disk has room. The space is also never offered to jobs' disk orders.
 */
public final class DiskReserve {

    private static final Logger LOG = LoggerFactory.getLogger(DiskReserve.class);
    static final String FILE = "disk-reserve";

    private final Path file;
    private final long bytes;

    public DiskReserve(Path workDir, long bytes) {
        this.file = workDir.resolve(FILE);
        this.bytes = bytes;
    }

    /** The size kept, in bytes. */
    public long bytes() {
        return bytes;
    }

    /** Whether the reserve is in place now. */
    public boolean held() {
        try {
            return bytes == 0 || Files.size(file) >= bytes;
        } catch (IOException e) {
            return false;
        }
    }

    /** Makes the reserve if it is not there and the disk has room for it and as much again. */
    public void restore(long usableBytes) {
        if (bytes == 0 || held() || usableBytes < 2 * bytes) {
            return;
        }
        Path tmp = file.resolveSibling(FILE + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")))) {
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long written = 0; written < bytes; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), bytes - written));
                written += out.write(zeros);
            }
            out.force(true);
        } catch (IOException e) {
            LOG.warn("cannot keep {} MiB of disk for the agent in {}: {}", bytes >> 20, file, e.getMessage());
            deleteQuietly(tmp);
            return;
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            deleteQuietly(tmp);
        }
    }

    /** A write of the agent's, done again after giving up the reserve if the disk is full. */
    public interface Write {
        void run() throws IOException;
    }

    /**
     * Runs {@code write}; if the disk is full, runs {@code first} (which stops the jobs that filled
     * it, so none of them takes the room), then gives up the reserve and runs the write once more.
     */
    public void write(Runnable first, Write write) throws IOException {
        try {
            write.run();
        } catch (IOException e) {
            if (!Files.exists(file) || !isFull(e)) {
                throw e;
            }
            first.run();
            LOG.warn("the disk of {} is full: giving up the agent's reserve to write ({})", file.getParent(), e.getMessage());
            deleteQuietly(file);
            write.run();
        }
    }

    private static boolean isFull(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("No space left on device")) {
                return true;
            }
        }
        return false;
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // nothing more to do
        }
    }
}
