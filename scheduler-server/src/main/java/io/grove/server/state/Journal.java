package io.grove.server.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.protocol.ProtocolJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only journal in {@code DIR/journal}: records of a 4-byte length, a 4-byte CRC-32 and
 * a JSON body. One writer thread writes queued records in batches and fsyncs each batch before
 * completing the records' futures, so an acknowledged change is on disk. A torn record at the end
 * (a crash in mid-write) is cut off on open; a bad record followed by good ones is corruption and
 * refuses to open. {@link #compact} replaces the file with a snapshot of the live state.
 */
public final class Journal implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
    static final int MAX_RECORD = 64 * 1024 * 1024;
    private static final ObjectMapper JSON = ProtocolJson.mapper();

    private final Path file;
    private final Path directory;
    private final List<JournalEvent> recovered;
    private final BlockingQueue<Task> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private FileChannel channel;
    private volatile long records;
    private volatile boolean closed;

    private sealed interface Task {
    }

    private record Append(JournalEvent event, CompletableFuture<Void> done) implements Task {
    }

    private record Compact(List<JournalEvent> snapshot, CompletableFuture<Void> done) implements Task {
    }

    private record Stop() implements Task {
    }

    private Journal(Path directory, List<JournalEvent> recovered, FileChannel channel) {
        this.directory = directory;
        this.file = directory.resolve("journal");
        this.recovered = recovered;
        this.channel = channel;
        this.records = recovered.size();
        this.writer = new Thread(this::writeLoop, "grove-journal");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    /**
     * Opens (or creates) the journal in {@code directory} and reads what it holds.
     *
     * @throws IOException if the directory cannot be used or the journal is corrupt before its end
     */
    public static Journal open(Path directory) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve("journal");
        List<JournalEvent> events = new ArrayList<>();
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        long good = read(channel, file, events);
        if (good < channel.size()) {
            LOG.warn("journal {}: torn record at offset {} ({} bytes) cut off; {} records kept", file, good,
                    channel.size() - good, events.size());
            channel.truncate(good);
            channel.force(true);
        }
        channel.position(good);
        return new Journal(directory, List.copyOf(events), channel);
    }

    /** Reads records until the end or a torn tail; returns the offset after the last good record. */
    private static long read(FileChannel channel, Path file, List<JournalEvent> into) throws IOException {
        long size = channel.size();
        long at = 0;
        ByteBuffer header = ByteBuffer.allocate(8);
        while (at < size) {
            if (size - at < 8) {
                return at;
            }
            header.clear();
            channel.read(header, at);
            header.flip();
            int length = header.getInt();
            int crc = header.getInt();
            if (length < 0 || length > MAX_RECORD || at + 8 + length > size) {
                return tornOrCorrupt(file, at, size, at + 8 + Math.max(0, Math.min(length, MAX_RECORD)), "length " + length);
            }
            ByteBuffer body = ByteBuffer.allocate(length);
            channel.read(body, at + 8);
            byte[] bytes = body.array();
            if (crc(bytes) != crc) {
                return tornOrCorrupt(file, at, size, at + 8 + length, "checksum mismatch");
            }
            try {
                into.add(JSON.readValue(bytes, JournalEvent.class));
            } catch (IOException e) {
                throw new IOException("journal " + file + ": record at offset " + at + " does not parse: " + e.getMessage(), e);
            }
            at += 8 + length;
        }
        return at;
    }

    /** A bad record is a torn tail when nothing follows it; otherwise the journal is corrupt. */
    private static long tornOrCorrupt(Path file, long at, long size, long end, String why) throws IOException {
        if (end >= size) {
            return at;
        }
        throw new IOException("journal " + file + " is corrupt at offset " + at + " (" + why + ") with "
                + (size - end) + " bytes after it; move it aside to start empty, or restore a copy");
    }

    private static int crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return (int) crc.getValue();
    }

    static byte[] encode(JournalEvent event) {
        try {
            byte[] body = JSON.writeValueAsBytes(event);
            return ByteBuffer.allocate(8 + body.length).putInt(body.length).putInt(crc(body)).put(body).array();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the journal held when it was opened, in order. */
    public List<JournalEvent> recovered() {
        return recovered;
    }

    /** Records in the file now (approximately, while appends are queued). */
    public long records() {
        return records;
    }

    /** Queues a record (encoded on the writer's thread); the future completes once it is on disk. */
    public CompletableFuture<Void> append(JournalEvent event) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (closed) {
            done.completeExceptionally(new IllegalStateException("the journal is closed"));
            return done;
        }
        queue.add(new Append(event, done));
        return done;
    }

    /**
     * Replaces the journal with {@code snapshot} (the live state as events), after everything queued
     * before it is written. The new file is written beside, fsynced and renamed over the old one.
     */
    public CompletableFuture<Void> compact(List<JournalEvent> snapshot) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.add(new Compact(List.copyOf(snapshot), done));
        return done;
    }

    private void writeLoop() {
        List<Task> batch = new ArrayList<>();
        while (true) {
            try {
                batch.add(queue.take());
                queue.drainTo(batch);
                List<CompletableFuture<Void>> written = new ArrayList<>();
                boolean stop = false;
                for (Task task : batch) {
                    if (task instanceof Append append) {
                        write(encode(append.event()));
                        written.add(append.done());
                    } else if (task instanceof Compact compact) {
                        flush(written);
                        replaceWith(compact.snapshot());
                        compact.done().complete(null);
                    } else {
                        stop = true;
                    }
                }
                flush(written);
                batch.clear();
                if (stop) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException | RuntimeException e) {
                LOG.error("journal {}: write failed; the records of this batch are not acknowledged", file, e);
                for (Task task : batch) {
                    if (task instanceof Append append) {
                        append.done().completeExceptionally(e);
                    } else if (task instanceof Compact compact) {
                        compact.done().completeExceptionally(e);
                    }
                }
                batch.clear();
            }
        }
    }

    private void write(byte[] record) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(record);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        records++;
    }

    private void flush(List<CompletableFuture<Void>> written) throws IOException {
        if (written.isEmpty()) {
            return;
        }
        channel.force(false);
        for (CompletableFuture<Void> done : written) {
            done.complete(null);
        }
        written.clear();
    }

    private void replaceWith(List<JournalEvent> snapshot) throws IOException {
        Path next = directory.resolve("journal.next");
        try (FileChannel out = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (JournalEvent event : snapshot) {
                ByteBuffer buffer = ByteBuffer.wrap(encode(event));
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
            out.force(true);
        }
        channel.close();
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException ignored) {
            // some file systems cannot fsync a directory; the rename is still atomic
        }
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        records = snapshot.size();
        LOG.info("journal {} compacted to {} records", file, snapshot.size());
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.add(new Stop());
        try {
            writer.join(10_000);
            channel.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            LOG.warn("journal {}: close failed", file, e);
        }
    }
}
