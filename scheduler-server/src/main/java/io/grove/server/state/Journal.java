package io.grove.server.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only journal in {@code DIR/journal} (0600, in a 0700 directory), records as
 * {@link JournalFormat} describes. One writer thread writes queued records in batches and fsyncs
 * each batch before completing the records' futures, so an acknowledged change is on disk. A
 * batch that fails is cut back off the file, so later appends follow the last good record; a
 * failed compaction leaves the journal as it was, still open for appends. A torn tail is cut off
 * on open; damage with valid records after it refuses to open. {@link #compact} replaces the file
 * with a snapshot of the live state.
 */
public final class Journal implements StateLog {

    private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
    static final int MAX_RECORD = JournalFormat.MAX_RECORD;
    private static final Set<StandardOpenOption> APPEND = Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);

    private final Path file;
    private final Path directory;
    private final JournalDisk disk;
    private final List<JournalEvent> recovered;
    private final BlockingQueue<Task> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    /** The open journal; {@code null} after a failure that left it to be opened again. */
    private FileChannel channel;
    /** Where the last acknowledged record ends. */
    private long good;
    /** The number of the next record. */
    private long sequence;
    private volatile long records;
    private volatile boolean closed;

    private sealed interface Task {
    }

    private record Append(JournalEvent event, CompletableFuture<Void> done) implements Task {
    }

    private record Compact(Supplier<List<JournalEvent>> snapshot, CompletableFuture<Void> done) implements Task {
    }

    private record Stop() implements Task {
    }

    private Journal(Path directory, JournalDisk disk, List<JournalEvent> recovered, FileChannel channel, long good) {
        this.directory = directory;
        this.disk = disk;
        this.file = directory.resolve("journal");
        this.recovered = recovered;
        this.channel = channel;
        this.good = good;
        this.sequence = recovered.size() + 1;
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
        return open(directory, JournalDisk.REAL);
    }

    static Journal open(Path directory, JournalDisk disk) throws IOException {
        createPrivateDirectory(directory);
        Path file = directory.resolve("journal");
        FileChannel channel = disk.open(file, APPEND);
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            byte[] data = Files.readAllBytes(file);
            JournalFormat.Contents contents = JournalFormat.read(data, file, new ArrayList<>());
            List<JournalEvent> events = List.copyOf(contents.events());
            if (contents.legacy()) {
                channel.close();
                LOG.info("journal {}: {} records of the first format, rewritten in the current one", file, events.size());
                channel = rewrite(directory, disk, events);
                return new Journal(directory, disk, events, channel, channel.size());
            }
            if (contents.goodLength() < data.length) {
                channel.truncate(contents.goodLength());
                channel.force(true);
            }
            channel.position(contents.goodLength());
            return new Journal(directory, disk, events, channel, contents.goodLength());
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Creates the data directory 0700 (an existing one is closed to others too). */
    public static void createPrivateDirectory(Path directory) throws IOException {
        Files.createDirectories(directory);
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
    }

    /** What the journal held when it was opened, in order. */
    @Override
    public List<JournalEvent> recovered() {
        return recovered;
    }

    /** Records in the file now (approximately, while appends are queued). */
    @Override
    public long records() {
        return records;
    }

    /** Queues a record (encoded on the writer's thread); the future completes once it is on disk. */
    @Override
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
     * Like {@link #compact(List)}, with the events made on the journal's thread: the caller
     * captures what they need from its live state (cheaply) and the supplier turns that into events,
     * so that a large snapshot does not hold up the thread that took it.
     */
    @Override
    public CompletableFuture<Void> compact(Supplier<List<JournalEvent>> snapshot) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.add(new Compact(snapshot, done));
        return done;
    }

    private void writeLoop() {
        List<Task> batch = new ArrayList<>();
        while (true) {
            try {
                batch.add(queue.take());
                queue.drainTo(batch);
                boolean stop = runBatch(batch);
                batch.clear();
                if (stop) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Writes appends in groups (one fsync each) with compactions between them; true on a stop. */
    private boolean runBatch(List<Task> batch) {
        List<Append> group = new ArrayList<>();
        for (Task task : batch) {
            if (task instanceof Append append) {
                group.add(append);
            } else if (task instanceof Compact compact) {
                writeGroup(group);
                try {
                    replaceWith(compact.snapshot().get());
                    compact.done().complete(null);
                } catch (IOException | RuntimeException e) {
                    LOG.error("journal {}: compaction failed ({}); the journal stays as it was", file, e.toString());
                    compact.done().completeExceptionally(e);
                }
            } else {
                writeGroup(group);
                return true;
            }
        }
        writeGroup(group);
        return false;
    }

    private void writeGroup(List<Append> group) {
        if (group.isEmpty()) {
            return;
        }
        long firstSequence = sequence;
        try {
            FileChannel out = channel();
            for (Append append : group) {
                ByteBuffer buffer = ByteBuffer.wrap(JournalFormat.encode(append.event(), sequence));
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                sequence++;
            }
            out.force(false);
            good = out.position();
            records += group.size();
            group.forEach(a -> a.done().complete(null));
        } catch (IOException | RuntimeException e) {
            sequence = firstSequence;
            LOG.error("journal {}: write failed ({}); the {} record(s) of this batch are not acknowledged", file,
                    e.toString(), group.size());
            cutBack();
            group.forEach(a -> a.done().completeExceptionally(e));
        }
        group.clear();
    }

    /** The open journal, opened again after a failure closed it. */
    private FileChannel channel() throws IOException {
        if (channel == null || !channel.isOpen()) {
            FileChannel reopened = disk.open(file, APPEND);
            try {
                reopened.truncate(good);
                reopened.position(good);
            } catch (IOException | RuntimeException e) {
                closeQuietly(reopened);
                throw e;
            }
            channel = reopened;
        }
        return channel;
    }

    /** Cuts a failed batch off the file, so the next one follows the last good record. */
    private void cutBack() {
        try {
            channel().truncate(good);
            channel.position(good);
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            LOG.error("journal {}: cannot cut the failed batch back to offset {} ({}); retried before the next write",
                    file, good, e.toString());
            closeQuietly(channel);
            channel = null;
        }
    }

    private void replaceWith(List<JournalEvent> snapshot) throws IOException {
        FileChannel next = rewrite(directory, disk, snapshot);
        closeQuietly(channel);
        channel = next;
        good = next.size();
        sequence = snapshot.size() + 1;
        records = snapshot.size();
        LOG.info("journal {} compacted to {} records", file, snapshot.size());
    }

    /**
     * Writes {@code events} to {@code journal.next}, fsyncs it, renames it over the journal and
     * returns it open for appends; on a failure the journal is untouched.
     */
    private static FileChannel rewrite(Path directory, JournalDisk disk, List<JournalEvent> events) throws IOException {
        Path next = directory.resolve("journal.next");
        Files.deleteIfExists(next);
        FileChannel out = disk.open(next, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE));
        try {
            long sequence = 1;
            for (JournalEvent event : events) {
                ByteBuffer buffer = ByteBuffer.wrap(JournalFormat.encode(event, sequence++));
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
            out.force(true);
            disk.move(next, directory.resolve("journal"));
        } catch (IOException | RuntimeException e) {
            closeQuietly(out);
            Files.deleteIfExists(next);
            throw e;
        }
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException ignored) {
            // some file systems cannot fsync a directory; the rename is still atomic
        }
        return out;
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException ignored) {
            // closing a failed channel
        }
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
            closeQuietly(channel);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
