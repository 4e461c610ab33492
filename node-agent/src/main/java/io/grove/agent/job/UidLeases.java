package io.grove.agent.job;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Machine-wide leases of job uids, one file per uid in a root-only directory, so that agents
 * sharing a range never give one uid to two jobs, and a uid is given again only once everything
 * its last job left is gone:
 * <ul>
 * <li>a lease is held (a lock on its file, which the kernel drops when its agent dies) from the
 *     job's start until its sandbox is removed, not merely until its processes end;</li>
 * <li>the file names the agent (its work directory) and the job, and keeps naming them after an
 *     agent dies: a restarted agent takes back the leases of its jobs whose files still exist, and
 *     no other agent takes a uid whose last job's files may still exist;</li>
 * <li>where in the range to look next is kept in the directory too, so an agent restart does not
 *     hand out the first uids of the range again;</li>
 * <li>a lease of an agent that is not running and whose work directory is gone is an orphan: no run
 *     of that agent can come back for it. An agent sweeps orphans as it starts ({@link #sweepOrphans}):
 *     once what the orphan's job left is emptied, its uid is free again.</li>
 * </ul>
 */
final class UidLeases {

    private static final Logger LOG = LoggerFactory.getLogger(UidLeases.class);
    private static final Set<OpenOption> OPEN = Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    static final String CURSOR = "next";

    private final Path dir;
    private final String owner;
    private final Predicate<String> hasFiles;
    private final Map<String, FileChannel> held = new HashMap<>();

    /**
     * @param dir the lease directory (made 0700 if missing)
     * @param owner this agent, as its work directory's absolute path
     * @param hasFiles whether a job of this agent still has files on the node (its job directory or sandbox)
     */
    UidLeases(Path dir, String owner, Predicate<String> hasFiles) throws IOException {
        this.dir = SafeDirs.ensure(dir, "rwx------");
        this.owner = owner;
        this.hasFiles = hasFiles;
    }

    /**
     * Takes the lease of {@code uid} for {@code jobId}: false when a running job holds it, or a
     * job of an agent that is gone may still have files with it.
     */
    boolean take(String jobId, int uid) throws IOException {
        FileChannel channel = FileChannel.open(dir.resolve(Integer.toString(uid)), OPEN,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        if (tryLock(channel) == null || !clean(read(channel))) {
            channel.close();
            return false;
        }
        write(channel, owner + "\t" + jobId);
        held.put(jobId, channel);
        return true;
    }

    /** Whether a lease file's text lets its uid be given: nobody's, or a job of this agent that left nothing. */
    private boolean clean(String text) {
        if (text.isBlank()) {
            return true;
        }
        String[] parts = text.strip().split("\t", 2);
        return parts.length == 2 && parts[0].equals(owner) && !hasFiles.test(parts[1]);
    }

    /** Everything of the job is gone: its uid may be given again. */
    void release(String jobId) {
        FileChannel channel = held.remove(jobId);
        if (channel == null) {
            return;
        }
        try (channel) {
            write(channel, "");
        } catch (IOException e) {
            LOG.warn("cannot release the lease of job {}'s uid: {}", jobId, e.getMessage());
        }
    }

    /** Lets go of every lock, leaving the files as they are (see {@link JobUsers#closeLeases}). */
    void close() {
        for (FileChannel channel : held.values()) {
            try {
                channel.close();
            } catch (IOException e) {
                // the lock goes with the process anyway
            }
        }
        held.clear();
    }

    /**
     * After a restart: takes back the leases this agent's jobs had, for those whose files still
     * exist, and clears the others.
     *
     * @return job id to uid of the leases taken back
     */
    Map<String, Integer> adopt() throws IOException {
        Map<String, Integer> adopted = new HashMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "[0-9]*")) {
            for (Path file : files) {
                if (!file.getFileName().toString().matches("[0-9]{1,10}")) {
                    continue;
                }
                int uid = Integer.parseInt(file.getFileName().toString());
                FileChannel channel = FileChannel.open(file, OPEN);
                String[] parts = tryLock(channel) == null ? new String[0] : read(channel).strip().split("\t", 2);
                if (parts.length == 2 && parts[0].equals(owner) && hasFiles.test(parts[1])) {
                    held.put(parts[1], channel);
                    adopted.put(parts[1], uid);
                    continue;
                }
                if (parts.length == 2 && parts[0].equals(owner)) {
                    write(channel, "");
                }
                channel.close();
            }
        }
        return adopted;
    }

    /** A lease left by an agent that is gone with its work directory. */
    record Orphan(int uid, String owner, String jobId) {
    }

    /** Empties what an orphan's job may have left (its processes, its sandbox); throws when it could not. */
    interface OrphanCleaner {
        void empty(Orphan orphan) throws IOException;
    }

    /**
     * Frees the uids of orphaned leases: held by no running agent (no lock), naming an agent whose
     * work directory no longer exists. Each is kept locked while {@code cleaner} empties what its
     * job left, and cleared only once that succeeded.
     *
     * @return the orphans freed
     */
    List<Orphan> sweepOrphans(OrphanCleaner cleaner) throws IOException {
        List<Orphan> freed = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "[0-9]*")) {
            for (Path file : files) {
                if (!file.getFileName().toString().matches("[0-9]{1,10}")) {
                    continue;
                }
                try (FileChannel channel = FileChannel.open(file, OPEN)) {
                    Orphan orphan = tryLock(channel) == null ? null
                            : orphan(Integer.parseInt(file.getFileName().toString()), read(channel));
                    if (orphan == null) {
                        continue;
                    }
                    try {
                        cleaner.empty(orphan);
                    } catch (IOException | RuntimeException e) {
                        LOG.warn("job uid {} of job {} of the agent in {} (gone): cannot empty what it left, the uid "
                                + "stays taken: {}", orphan.uid(), orphan.jobId(), orphan.owner(), e.getMessage());
                        continue;
                    }
                    write(channel, "");
                    freed.add(orphan);
                }
            }
        }
        return freed;
    }

    /** The orphan a lease file's text names, or {@code null}: nobody's, this agent's, or an agent's whose directory exists. */
    private Orphan orphan(int uid, String text) {
        String[] parts = text.strip().split("\t", 2);
        if (parts.length != 2 || parts[0].equals(owner)) {
            return null;
        }
        try {
            Path agent = Path.of(parts[0]);
            return agent.isAbsolute() && !Files.exists(agent, LinkOption.NOFOLLOW_LINKS) && WorkDir.isSafeId(parts[1])
                    ? new Orphan(uid, parts[0], parts[1]) : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** Where to look next in the range (0 when never written). */
    int cursor() {
        try {
            return Integer.parseInt(Files.readString(dir.resolve(CURSOR)).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    void cursor(int next) {
        try {
            Path tmp = dir.resolve(CURSOR + ".tmp");
            Files.deleteIfExists(tmp);
            Files.writeString(Files.createFile(tmp, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------"))), Integer.toString(next));
            Files.move(tmp, dir.resolve(CURSOR), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("cannot keep the next job uid in {}: {}", dir, e.getMessage());
        }
    }

    /** The lease's lock, or {@code null} when an agent (this one or another) holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldHere) {
            return null;
        }
    }

    private static String read(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(4096, channel.size()));
        channel.read(buffer, 0);
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    }

    private static void write(FileChannel channel, String text) throws IOException {
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
        channel.force(false);
    }
}
