package io.grove.server.state;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append-only journal in {@code DIR/journal} (0600, in a 0700 directory), records as
 * {@link JournalFormat} describes. One writer thread writes queued records in batches and fsyncs
 * each batch that anyone waits for before completing the records' futures, so an acknowledged
 * change is on disk; job events nobody waits for are synced within {@value #SYNC_INTERVAL_MS} ms. A
 * batch that fails is cut back off the file, so later appends follow the last good record; a
 * failed compaction leaves the journal as it was, still open for appends. A torn tail is cut off
 * on open; damage with valid records after it refuses to open. {@link #compact} replaces the file
 * with a snapshot of the live state.
 */
public final class Journal extends QueuedStateLog {

    private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
    static final int MAX_RECORD = JournalFormat.MAX_RECORD;
    private static final Set<StandardOpenOption> APPEND = Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);

    private final Path file;
    private final Path directory;
    private final JournalDisk disk;
    /** The open journal; {@code null} after a failure that left it to be opened again. */
    private FileChannel channel;
    /** The journal file's identity (device and inode) when it was opened or last replaced. */
    private Object identity;
    /** Whether the file was found deleted or replaced: nothing is acknowledged until a snapshot. */
    private volatile boolean lost;
    /** Where the last acknowledged record ends. */
    private long good;
    /** The number of the next record. */
    private long sequence;
    /** When the journal was last fsynced ({@link System#nanoTime}), and whether writes came after. */
    private long lastSync = System.nanoTime();
    private boolean unsynced;
    /** The records of the group being written; the writer thread's alone. */
    private final RecordBuffer buffer = new RecordBuffer();
    /** A snapshot is written in pieces of about this many bytes, in a buffer that stays small. */
    private static final int REWRITE_CHUNK = RecordBuffer.KEPT / 2;

    private Journal(Path directory, JournalDisk disk, List<JournalEvent> recovered, FileChannel channel, long good) {
        super("journal", recovered);
        this.directory = directory;
        this.disk = disk;
        this.file = directory.resolve("journal");
        this.channel = channel;
        this.good = good;
        this.sequence = recovered.size() + 1;
        this.identity = identity(file);
        startWriter("grove-journal");
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

    @Override
    void compactTo(List<JournalEvent> snapshot) throws IOException {
        replaceWith(snapshot);
    }

    @Override
    Throwable compactionFailed(Exception e) {
        LOG.error("journal {}: compaction failed ({}); the journal stays as it was", file, e.toString());
        return e;
    }

    /**
     * Writes a group of records with one call, and fsyncs it when anyone waits for one of them or
     * the last fsync is {@value #SYNC_INTERVAL_MS} ms old; a group of job events alone is synced
     * with a later one (on a busy cluster, hundreds of fsyncs a second fewer). A failed group is cut
     * back off the file.
     */
    @Override
    void writeGroup(List<Append> group) {
        long firstSequence = sequence;
        try {
            FileChannel out = channel();
            buffer.reset();
            for (Append append : group) {
                JournalFormat.encode(append.event(), sequence++, buffer);
            }
            // One write for the group: a system call per record cost more than the records.
            buffer.writeTo(out);
            buffer.reset();
            long now = System.nanoTime();
            if (awaited(group) || now - lastSync >= TimeUnit.MILLISECONDS.toNanos(SYNC_INTERVAL_MS)) {
                out.force(false);
                lastSync = now;
                unsynced = false;
            } else {
                unsynced = true;
            }
            good = out.position();
            // written to the file the journal is: a file deleted or replaced acknowledges nothing (one stat a group)
            checkSame();
            stored(group.size());
            completed(group);
        } catch (IOException | RuntimeException e) {
            sequence = firstSequence;
            LOG.error("journal {}: write failed ({}); the {} record(s) of this batch are not acknowledged", file,
                    e.toString(), group.size());
            cutBack();
            failed(group, e);
        }
    }

    @Override
    boolean unsynced() {
        return unsynced;
    }

    @Override
    void syncNow() {
        try {
            channel().force(false);
            lastSync = System.nanoTime();
            unsynced = false;
        } catch (IOException | RuntimeException e) {
            // the next awaited group fsyncs again, and fails visibly if the disk still does
            LOG.error("journal {}: fsync failed ({}); retried with the next write", file, e.toString());
            unsynced = false;
        }
    }

    /**
     * Fails unless the journal's path is still the file the journal writes: one deleted (or
     * replaced) under the daemon would take every acknowledged record with it at the next start.
     */
    private void checkSame() throws IOException {
        if (lost || !Objects.equals(identity, identity(file))) {
            lost = true;
            throw new IOException("the journal " + file + " was deleted or replaced under the scheduler; "
                    + "nothing is acknowledged until a snapshot of the live state is written afresh");
        }
    }

    /** The file's identity, or {@code null} when there is none. */
    private static Object identity(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public boolean needsSnapshot() {
        return lost;
    }

    /** The open journal, opened again after a failure closed it. */
    private FileChannel channel() throws IOException {
        if (channel == null || !channel.isOpen()) {
            // never created here: a journal that is gone is written afresh by a snapshot
            FileChannel reopened = disk.open(file, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
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
        if (lost) {
            return; // not the journal's file any more: a snapshot makes a new one
        }
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
        long started = System.nanoTime();
        FileChannel next = rewrite(directory, disk, snapshot);
        closeQuietly(channel);
        channel = next;
        identity = identity(file);
        if (lost) {
            LOG.warn("journal {}: written afresh from the live state after it was lost", file);
            lost = false;
        }
        good = next.size();
        sequence = snapshot.size() + 1;
        unsynced = false;
        restarted(snapshot.size());
        LOG.info("journal {} compacted to {} records in {} ms", file, snapshot.size(),
                (System.nanoTime() - started) / 1_000_000);
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
            RecordBuffer buffer = new RecordBuffer();
            for (int i = 0; i < events.size(); i++) {
                JournalFormat.encode(events, i, sequence++, buffer);
                if (buffer.size() >= REWRITE_CHUNK) {
                    buffer.writeTo(out);
                    buffer.reset();
                }
            }
            buffer.writeTo(out);
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
    void afterClose() {
        closeQuietly(channel);
    }
}
