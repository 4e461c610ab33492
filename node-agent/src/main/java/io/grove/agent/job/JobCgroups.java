package io.grove.agent.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cgroup of its own for every job, as Slurm's cgroup plugins and YARN's cgroups handler give
 * containers: every process the job starts stays in it whatever it does (a new session, a double
 * fork), all of them are killed when the job ends, and the kernel holds the job to its memory.
 * Job cgroups live under the agent's own cgroup, in {@code grove-jobs-HASH/JOB}:
 * <ul>
 * <li>cgroup v2 (a delegated subtree, as systemd's {@code Delegate=yes} gives): the agent moves
 *     itself into a leaf {@code grove-agent} so that controllers can be enabled below;
 *     {@code memory.max}, and {@code cgroup.kill} to end a job;</li>
 * <li>cgroup v1 (the memory controller's hierarchy): {@code memory.limit_in_bytes}, and
 *     {@code cgroup.procs} killed until empty.</li>
 * </ul>
 * Where neither can be written (not root, no delegation), {@link #none} says why and the agent
 * falls back to its process groups, its per-job uids and its memory sampler.
 */
public final class JobCgroups {

    private static final Logger LOG = LoggerFactory.getLogger(JobCgroups.class);

    /** Which hierarchy, or none. */
    public enum Version { NONE, V1, V2 }

    private final Version version;
    private final Path base;
    private final String why;

    private JobCgroups(Version version, Path base, String why) {
        this.version = version;
        this.base = base;
        this.why = why;
    }

    /** No cgroups, for the given reason. */
    public static JobCgroups none(String why) {
        return new JobCgroups(Version.NONE, null, why);
    }

    /**
     * Finds a usable hierarchy from {@code /proc/self/cgroup} and {@code /proc/self/mountinfo}.
     *
     * @param name a name for this agent's jobs, unique on the machine (from its work directory)
     */
    public static JobCgroups detect(String name) {
        return detect(Path.of("/proc/self"), name);
    }

    static JobCgroups detect(Path self, String name) {
        try {
            List<String> membership = Files.readAllLines(self.resolve("cgroup"));
            List<String> mounts = Files.readAllLines(self.resolve("mountinfo"));
            Optional<Path> v2 = mountOf(mounts, "cgroup2", null);
            Optional<Path> v1 = mountOf(mounts, "cgroup", "memory");
            if (v2.isPresent() && Files.exists(v2.get().resolve("cgroup.controllers"))
                    && read(v2.get().resolve("cgroup.controllers")).contains("memory")) {
                Path own = v2.get().resolve(relative(pathIn(membership, "")));
                return v2(own, name);
            }
            if (v1.isPresent()) {
                Path own = v1.get().resolve(relative(pathIn(membership, "memory")));
                Path base = own.resolve(name);
                Files.createDirectories(base);
                return new JobCgroups(Version.V1, base, null);
            }
            return none("no cgroup hierarchy with the memory controller is mounted");
        } catch (IOException | RuntimeException e) {
            return none("cgroups cannot be used here (" + e.getMessage() + ")");
        }
    }

    private static JobCgroups v2(Path own, String name) throws IOException {
        if (!read(own.resolve("cgroup.controllers")).contains("memory")) {
            return none("the memory controller is not delegated to " + own);
        }
        Path leaf = own.resolve("grove-agent");
        Files.createDirectories(leaf);
        // no processes in a cgroup whose controllers are enabled below it: the agent moves to a leaf
        Files.writeString(leaf.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
        Files.writeString(own.resolve("cgroup.subtree_control"), "+memory");
        Path base = own.resolve(name);
        Files.createDirectories(base);
        Files.writeString(base.resolve("cgroup.subtree_control"), "+memory");
        return new JobCgroups(Version.V2, base, null);
    }

    public Version version() {
        return version;
    }

    public boolean enabled() {
        return version != Version.NONE;
    }

    /** What the agent says at start about how jobs are contained. */
    public String describe() {
        return switch (version) {
            case NONE -> "no cgroups (" + why + "): jobs are contained by their process groups and per-job uids, and "
                    + "the memory sampler enforces their memory";
            case V1 -> "a cgroup v1 of its own for each job under " + base + " (memory limited by the kernel)";
            case V2 -> "a cgroup v2 of its own for each job under " + base + " (memory limited by the kernel)";
        };
    }

    /**
     * Creates a job's cgroup with its memory limit (none when {@code memoryBytes} is 0).
     *
     * @return the {@code cgroup.procs} files the job's first process joins; empty without cgroups
     */
    public List<Path> create(String jobId, long memoryBytes) throws IOException {
        if (!enabled()) {
            return List.of();
        }
        Path dir = base.resolve(jobId);
        Files.createDirectories(dir);
        if (memoryBytes > 0) {
            if (version == Version.V2) {
                Files.writeString(dir.resolve("memory.max"), Long.toString(memoryBytes));
                writeIfPresent(dir.resolve("memory.swap.max"), "0");
            } else {
                Files.writeString(dir.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
            }
        }
        return List.of(dir.resolve("cgroup.procs"));
    }

    /** Whether the kernel killed a process of the job for its memory. */
    public boolean oomKilled(String jobId) {
        if (!enabled()) {
            return false;
        }
        Path dir = base.resolve(jobId);
        String events = version == Version.V2 ? read(dir.resolve("memory.events")) : read(dir.resolve("memory.oom_control"));
        for (String line : events.split("\n")) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length == 2 && parts[0].equals("oom_kill") && !parts[1].equals("0")) {
                return true;
            }
        }
        return false;
    }

    /** Kills every process in the job's cgroup and removes it; true when it is gone. */
    public boolean killAndRemove(String jobId) {
        if (!enabled()) {
            return true;
        }
        return killAndRemove(base.resolve(jobId));
    }

    private boolean killAndRemove(Path dir) {
        if (!Files.isDirectory(dir)) {
            return true;
        }
        if (version == Version.V2) {
            writeIfPresent(dir.resolve("cgroup.kill"), "1");
        }
        // killed processes leave the cgroup as they exit; new ones forked meanwhile are killed next round
        for (int round = 0; round < 2000; round++) {
            List<Long> pids = pids(dir);
            if (pids.isEmpty()) {
                break;
            }
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            LockSupport.parkNanos(1_000_000);
        }
        try {
            Files.deleteIfExists(dir);
            return true;
        } catch (IOException e) {
            // a process not reaped yet keeps it; the next sweep removes it
            return false;
        }
    }

    /** After a restart: the cgroups of jobs of a previous run, their processes killed. */
    public int sweep() {
        if (!enabled()) {
            return 0;
        }
        int swept = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, Files::isDirectory)) {
            for (Path dir : dirs) {
                if (!pids(dir).isEmpty()) {
                    swept++;
                }
                killAndRemove(dir);
            }
        } catch (IOException e) {
            LOG.warn("cannot sweep job cgroups under {}: {}", base, e.getMessage());
        }
        return swept;
    }

    /** Kills whatever is left and removes this agent's cgroups (the agent stops). */
    public void removeAll() {
        if (enabled()) {
            sweep();
            try {
                Files.deleteIfExists(base);
            } catch (IOException e) {
                LOG.debug("cannot remove {}: {}", base, e.getMessage());
            }
        }
    }

    /** The processes in a job's cgroup. */
    public List<Long> pids(String jobId) {
        return enabled() ? pids(base.resolve(jobId)) : List.of();
    }

    private static List<Long> pids(Path dir) {
        List<Long> pids = new ArrayList<>();
        for (String line : read(dir.resolve("cgroup.procs")).split("\n")) {
            if (!line.isBlank()) {
                pids.add(Long.parseLong(line.trim()));
            }
        }
        return pids;
    }

    private static Optional<Path> mountOf(List<String> mountinfo, String type, String option) {
        for (String line : mountinfo) {
            int dash = line.indexOf(" - ");
            if (dash < 0) {
                continue;
            }
            String[] before = line.substring(0, dash).split(" ");
            String[] after = line.substring(dash + 3).split(" ");
            if (after.length >= 3 && after[0].equals(type) && before.length >= 5 && before[3].equals("/")
                    && (option == null || List.of(after[2].split(",")).contains(option))) {
                return Optional.of(Path.of(before[4]));
            }
        }
        return Optional.empty();
    }

    /** The agent's cgroup path in the hierarchy of {@code controller} ("" for v2). */
    private static String pathIn(List<String> membership, String controller) {
        for (String line : membership) {
            String[] parts = line.split(":", 3);
            if (parts.length == 3 && (controller.isEmpty() ? parts[0].equals("0") && parts[1].isEmpty()
                    : List.of(parts[1].split(",")).contains(controller))) {
                return parts[2];
            }
        }
        throw new IllegalStateException("this process is in no " + (controller.isEmpty() ? "cgroup v2" : controller)
                + " cgroup");
    }

    private static String relative(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static void writeIfPresent(Path file, String value) {
        if (Files.exists(file)) {
            try {
                Files.writeString(file, value);
            } catch (IOException e) {
                // an older kernel: the fallback below still kills
            }
        }
    }
}
