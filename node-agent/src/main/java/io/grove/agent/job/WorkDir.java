package io.grove.agent.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.ProtocolJson;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The agent's work directory:
 * <pre>
 * node-id                     the node's id, kept across restarts
 * jobs/JOB/sandbox/           the job's working directory
 * jobs/JOB/stdout, stderr     its output while it runs
 * jobs/JOB/job.json           pid and start time, to find it again after an agent restart
 * jobs/JOB/result.json        its result until the scheduler acknowledged it
 * logs/JOB/stdout, stderr     archived output, kept for the log retention
 * </pre>
 * Records are written to a temporary file, fsynced and renamed, so a crash leaves the old or the
 * new one.
 */
public final class WorkDir {

    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,199}");
    private static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();

    private static final String PRIVATE_DIR = "rwx------";
    private static final String PASSAGE = "rwx--x--x";
    private static final String PRIVATE_FILE = "rw-------";
    /**
     * Where sandboxes go when the work directory is closed to job users: under {@code /var/lib},
     * which only root can write to (never a world-writable place such as {@code /var/tmp}, where a
     * job could plant a link named after the next job).
     */
    public static final Path SANDBOXES = Path.of("/var/lib/grove/sandboxes");

    private final Path root;
    private final boolean forOtherUsers;
    /** Where sandboxes live when jobs run as other users and the work directory is closed to them. */
    private final Path sandboxes;

    /** The node's device template every job's {@code /dev} is copied from ({@link JobDevices#template}). */
    public Path devTemplate() {
        return root.resolve("dev-template");
    }

    public WorkDir(Path root) throws IOException {
        this(root, false);
    }

    /**
     * @param forOtherUsers jobs run as other users: their sandboxes must be reachable by them. When
     *     a directory above the work directory is closed to others (a home directory, a private
     *     temporary folder), sandboxes go to {@code /var/lib/grove/sandboxes/HASH} instead; records
     *     and logs stay in the work directory.
     */
    public WorkDir(Path root, boolean forOtherUsers) throws IOException {
        this.root = root;
        this.forOtherUsers = forOtherUsers;
        // records and logs are the agent's alone; with job users the job directories can be
        // passed through (to reach a sandbox) but not listed. Every directory the agent makes is a
        // real directory of its own that no one else can write to (SafeDirs): no job can plant a link in it.
        String passage = forOtherUsers ? PASSAGE : PRIVATE_DIR;
        SafeDirs.ensure(root, passage);
        SafeDirs.ensure(root.resolve("jobs"), passage);
        SafeDirs.ensure(root.resolve("logs"), PRIVATE_DIR);
        Path absolute = root.toAbsolutePath().normalize();
        this.sandboxes = forOtherUsers && !openToOthers(absolute.getParent()) ? separateSandboxes(absolute.toString()) : null;
        if (sandboxes != null) {
            SafeDirs.ensure(sandboxes, PASSAGE);
        }
    }

    /** Where the sandboxes of the agent whose work directory is {@code absoluteRoot} go when kept apart. */
    public static Path separateSandboxes(String absoluteRoot) {
        return SANDBOXES.resolve(Integer.toHexString(absoluteRoot.hashCode()));
    }

    private static boolean openToOthers(Path dir) throws IOException {
        for (Path at = dir; at != null; at = at.getParent()) {
            if (!Files.getPosixFilePermissions(at).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                return false;
            }
        }
        return true;
    }

    public Path root() {
        return root;
    }

    /** Whether a job id is safe as a directory name. */
    public static boolean isSafeId(String id) {
        return id != null && SAFE_ID.matcher(id).matches();
    }

    public Path jobDir(String jobId) {
        return root.resolve("jobs").resolve(jobId);
    }

    public Path sandbox(String jobId) {
        return sandboxes != null ? sandboxes.resolve(jobId) : jobDir(jobId).resolve("sandbox");
    }

    /** The directory that holds every job's sandbox (one entry per job). */
    public Path sandboxesRoot() {
        return sandboxes != null ? sandboxes : root.resolve("jobs");
    }

    /** Where sandboxes are kept apart from the work directory, or {@code null}. */
    public Path separateSandboxes() {
        return sandboxes;
    }

    /**
     * Creates a job's sandbox (with {@code tmp/} for its {@code TMPDIR}) and empty log files. With
     * a job user, the sandbox is the user's with mode 0700 (no other job can read it) and the
     * directories above it can be passed through but not listed (0711); the logs are the agent's
     * (0600), the job writes them through the descriptors the agent opened.
     */
    public void prepare(String jobId, JobUsers.User user) throws IOException {
        Path dir = jobDir(jobId);
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            SafeDirs.check(dir);
        } else {
            SafeDirs.fresh(dir, forOtherUsers ? PASSAGE : PRIVATE_DIR);
        }
        // made fresh as the agent's, under a parent no job can write to, then given to the job user
        Path sandbox = SafeDirs.fresh(sandbox(jobId), PRIVATE_DIR);
        Path tmp = Files.createDirectory(sandbox.resolve("tmp"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(PRIVATE_DIR)));
        for (Path owned : List.of(tmp, sandbox)) {
            if (user != null) {
                Files.setAttribute(owned, "unix:gid", user.gid(), LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(owned, "unix:uid", user.uid(), LinkOption.NOFOLLOW_LINKS);
            }
        }
        for (String log : List.of("stdout", "stderr")) {
            Path file = dir.resolve(log);
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(PRIVATE_FILE)));
            }
        }
    }

    /** Where a job's launch script is written: beside its sandbox, reachable by its user only. */
    public Path launchScript(String jobId) {
        return sandboxes != null ? sandboxes.resolve(jobId + ".launch") : jobDir(jobId).resolve("launch.sh");
    }

    /**
     * What the agent records of a running job.
     *
     * @param gpus the indices of the GPUs it holds: after an agent restart they stay its own until its files are gone
     */
    public record JobRecord(String jobId, String operationId, long pid, long processStartTicks, long startedAtMs,
            List<Integer> gpus) {
        public JobRecord {
            gpus = gpus == null ? List.of() : List.copyOf(gpus);
        }
    }

    public void writeRecord(JobRecord record) throws IOException {
        writeAtomically(jobDir(record.jobId()).resolve("job.json"), JSON.writeValueAsBytes(record));
    }

    public void writeResult(FinishedJob result) throws IOException {
        writeAtomically(jobDir(result.jobId()).resolve("result.json"), ProtocolJson.mapper().writeValueAsBytes(result));
    }

    /** Every job directory: its record if it has one, and its unacknowledged result if any. */
    public List<Leftover> leftovers() throws IOException {
        List<Leftover> found = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root.resolve("jobs"))) {
            for (Path dir : dirs) {
                String jobId = dir.getFileName().toString();
                Optional<JobRecord> record = read(dir.resolve("job.json"), JobRecord.class);
                Optional<FinishedJob> result = read(dir.resolve("result.json"), FinishedJob.class);
                found.add(new Leftover(jobId, record, result));
            }
        }
        return found;
    }

    /** A job directory found at start. */
    public record Leftover(String jobId, Optional<JobRecord> record, Optional<FinishedJob> result) {
    }

    private static <T> Optional<T> read(Path file, Class<T> type) {
        try {
            ObjectMapper mapper = type == FinishedJob.class ? ProtocolJson.mapper() : JSON;
            return Files.exists(file) ? Optional.of(mapper.readValue(file.toFile(), type)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The last {@code bytes} of a file as text (invalid UTF-8 at the cut replaced). */
    public static String tail(Path file, int bytes) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            long from = Math.max(0, length - bytes);
            byte[] data = new byte[(int) (length - from)];
            in.seek(from);
            in.readFully(data);
            return new String(data, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Where a job's log is now: in its job directory, else archived; empty if neither. */
    public Optional<Path> log(String jobId, String stream) {
        if (!isSafeId(jobId)) {
            return Optional.empty();
        }
        for (Path file : List.of(jobDir(jobId).resolve(stream), root.resolve("logs").resolve(jobId).resolve(stream))) {
            if (Files.exists(file)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }

    /** Moves a finished job's logs to the archive. */
    public void archiveLogs(String jobId) throws IOException {
        Path target = root.resolve("logs").resolve(jobId);
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectory(target, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(PRIVATE_DIR)));
        }
        SafeDirs.check(target);
        for (String log : List.of("stdout", "stderr")) {
            Path file = jobDir(jobId).resolve(log);
            if (Files.exists(file)) {
                Files.move(file, target.resolve(log), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Whether a running job's stdout or stderr reached {@code limit} bytes (its file size limit: the kernel refused it more). */
    public boolean outputReached(String jobId, long limit) {
        for (String stream : List.of("stdout", "stderr")) {
            try {
                if (Files.size(jobDir(jobId).resolve(stream)) >= limit) {
                    return true;
                }
            } catch (IOException e) {
                // no output
            }
        }
        return false;
    }

    /** Whether a job still has files here: its job directory or its sandbox. */
    public boolean hasFiles(String jobId) {
        return isSafeId(jobId) && (Files.exists(jobDir(jobId), LinkOption.NOFOLLOW_LINKS)
                || Files.exists(sandbox(jobId), LinkOption.NOFOLLOW_LINKS));
    }

    /** Removes a job's directory (sandbox, record, result). */
    public void removeJob(String jobId) throws IOException {
        Trees.delete(jobDir(jobId));
        if (sandboxes != null) {
            Trees.delete(sandbox(jobId));
            Files.deleteIfExists(launchScript(jobId));
        }
    }

    /** Removes archived logs last written before {@code cutoffMs}; returns how many jobs' logs went. */
    public int expireLogs(long cutoffMs) throws IOException {
        int removed = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root.resolve("logs"))) {
            for (Path dir : dirs) {
                if (Files.getLastModifiedTime(dir).toMillis() < cutoffMs) {
                    Trees.delete(dir);
                    removed++;
                }
            }
        }
        return removed;
    }

    private static void writeAtomically(Path file, byte[] data) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try (FileChannel out = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(PRIVATE_FILE)))) {
            out.write(ByteBuffer.wrap(data));
            out.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
