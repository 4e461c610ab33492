package io.grove.agent.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cgroup of its own for every job, as Slurm's cgroup plugins and YARN's cgroups handler give
 * containers: every process the job starts stays in it whatever it does (a new session, a double
 * fork), all of them are killed when the job ends, and the kernel holds the job to its memory, its
 * CPU order, its number of processes and its devices. Job cgroups live under the agent's own
 * cgroup, in {@code grove-jobs-HASH/JOB}:
 * <ul>
 * <li>cgroup v2 (a delegated subtree, as systemd's {@code Delegate=yes} gives): the agent moves
 *     itself into a leaf {@code grove-agent} so that controllers can be enabled below;
 *     {@code memory.max}, {@code cpu.max} and {@code cpu.weight}, {@code pids.max}, and
 *     {@code cgroup.kill} to end a job;</li>
 * <li>cgroup v1 (one hierarchy per controller): {@code memory.limit_in_bytes},
 *     {@code cpu.cfs_quota_us} and {@code cpu.shares}, {@code pids.max}, and the devices allow-list
 *     the jobs' cgroup holds ({@link #allowDevices}) less the GPUs the job was not given;
 *     a job is frozen ({@code freezer}) while its processes are killed, so a fork bomb cannot outrun
 *     the kill.</li>
 * </ul>
 * Where neither can be written (not root, no delegation), {@link #none} says why and the agent
 * falls back to its process groups, its per-job uids and its memory sampler.
 */
public final class JobCgroups {

    private static final Logger LOG = LoggerFactory.getLogger(JobCgroups.class);

    /** Which hierarchy, or none. */
    public enum Version { NONE, V1, V2 }

    /** The controllers used on cgroup v1, in the order a job's first process joins them. */
    static final List<String> V1_CONTROLLERS = List.of("memory", "cpu", "cpuacct", "pids", "devices", "freezer");
    /** The controllers enabled for jobs on cgroup v2 (devices have no files there: see {@link #describe}). */
    static final List<String> V2_CONTROLLERS = List.of("memory", "cpu", "pids");

    private final Version version;
    /** Per controller, the directory holding the jobs' cgroups; on v2 every controller maps to one directory. */
    private final Map<String, Path> bases;
    private final String why;

    private JobCgroups(Version version, Map<String, Path> bases, String why) {
        this.version = version;
        this.bases = bases;
        this.why = why;
    }

    /** No cgroups, for the given reason. */
    public static JobCgroups none(String why) {
        return new JobCgroups(Version.NONE, Map.of(), why);
    }

    /**
     * Finds a usable hierarchy from {@code /proc/self/cgroup} and {@code /proc/self/mountinfo}.
     *
     * @param name a name for this agent's jobs, unique on the machine (from its work directory)
     */
    public static JobCgroups detect(String name) {
        return detect(Path.of("/proc/self"), name);
    }

    /** As {@link #detect(String)}, reading {@code cgroup} and {@code mountinfo} in {@code self} (tests: a fake). */
    public static JobCgroups detect(Path self, String name) {
        return detect(self, Path.of("/"), name);
    }

    /**
     * As above, with every mount point of {@code mountinfo} taken under {@code root}: a test builds
     * the cgroup filesystem of a node (v1 or v2, {@code /sys/fs/cgroup/...}) in a temporary
     * directory and runs the same code on it, as any user.
     */
    public static JobCgroups detect(Path self, Path root, String name) {
        try {
            CgroupMounts mounts = new CgroupMounts(Files.readAllLines(self.resolve("mountinfo")),
                    Files.readAllLines(self.resolve("cgroup")), root);
            Optional<Path> v2 = mounts.v2();
            if (v2.isPresent() && read(v2.get().resolve("cgroup.controllers")).contains("memory")) {
                return v2(mounts.v2Own(v2.get()), name);
            }
            Map<String, Path> bases = new LinkedHashMap<>();
            for (String controller : V1_CONTROLLERS) {
                Optional<Path> own = mounts.v1Own(controller);
                if (own.isPresent()) {
                    Path base = own.get().resolve(name);
                    Files.createDirectories(base);
                    bases.put(controller, base);
                }
            }
            if (!bases.containsKey("memory")) {
                return none("no cgroup hierarchy with the memory controller is mounted");
            }
            return new JobCgroups(Version.V1, bases, null);
        } catch (IOException | RuntimeException e) {
            return none("cgroups cannot be used here (" + e.getMessage() + ")");
        }
    }

    private static JobCgroups v2(Path own, String name) throws IOException {
        Set<String> available = Set.of(read(own.resolve("cgroup.controllers")).trim().split("\\s+"));
        if (!available.contains("memory")) {
            return none("the memory controller is not delegated to " + own);
        }
        StringBuilder enable = new StringBuilder();
        Map<String, Path> bases = new LinkedHashMap<>();
        Path base = own.resolve(name);
        for (String controller : V2_CONTROLLERS) {
            if (available.contains(controller)) {
                enable.append(enable.length() == 0 ? "" : " ").append('+').append(controller);
                bases.put(controller, base);
            }
        }
        Path leaf = own.resolve("grove-agent");
        Files.createDirectories(leaf);
        // no processes in a cgroup whose controllers are enabled below it: the agent moves to a leaf
        Files.writeString(leaf.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
        Files.writeString(own.resolve("cgroup.subtree_control"), enable.toString());
        Files.createDirectories(base);
        Files.writeString(base.resolve("cgroup.subtree_control"), enable.toString());
        return new JobCgroups(Version.V2, bases, null);
    }

    public Version version() {
        return version;
    }

    public boolean enabled() {
        return version != Version.NONE;
    }

    /** Whether the kernel can hold jobs to the given controller ({@code memory}, {@code cpu}, {@code pids}, {@code devices}). */
    public boolean controls(String controller) {
        return bases.containsKey(controller);
    }

    /** Why jobs' cgroups cannot be made any more (a hierarchy's directory is gone), or {@code null}. */
    public String gone() {
        for (Map.Entry<String, Path> base : bases.entrySet()) {
            if (!Files.isDirectory(base.getValue())) {
                return "cgroups gone: " + base.getValue() + " (" + base.getKey() + ") no longer exists";
            }
        }
        return null;
    }

    /** What the agent says at start about how jobs are contained. */
    public String describe() {
        if (version == Version.NONE) {
            return "no cgroups (" + why + "): jobs are contained by their process groups and per-job uids, the memory "
                    + "sampler enforces their memory, and their CPU, processes and devices are not limited";
        }
        List<String> held = new ArrayList<>();
        List<String> not = new ArrayList<>();
        for (String controller : List.of("memory", "cpu", "pids", "devices")) {
            (controls(controller) ? held : not).add(controller);
        }
        if (version == Version.V2) {
            not.remove("devices");
            not.add("devices (cgroup v2 needs a device program: a job's devices are held by its own /dev alone)");
        }
        return "a cgroup " + (version == Version.V1 ? "v1" : "v2") + " of its own for each job under "
                + bases.get("memory") + "; the kernel limits " + held + (not.isEmpty() ? "; not limited: " + not : "");
    }

    /**
     * Creates a job's cgroup with its limits.
     *
     * @return the {@code cgroup.procs} files the job's first process joins; empty without cgroups
     */
    public List<Path> create(String jobId, CgroupLimits limits) throws IOException {
        if (!enabled()) {
            return List.of();
        }
        for (Path dir : dirs(jobId)) {
            Files.createDirectories(dir);
        }
        if (version == Version.V2) {
            Path dir = bases.get("memory").resolve(jobId);
            if (limits.memoryBytes() > 0) {
                Files.writeString(dir.resolve("memory.max"), Long.toString(limits.memoryBytes()));
                writeIfPresent(dir.resolve("memory.swap.max"), "0");
            }
            if (controls("cpu")) {
                long quota = limits.cpuQuotaUs();
                Files.writeString(dir.resolve("cpu.max"), (quota < 0 ? "max" : Long.toString(quota)) + " "
                        + CgroupLimits.CPU_PERIOD_US);
                if (limits.cpuWeight() > 0) {
                    Files.writeString(dir.resolve("cpu.weight"), Long.toString(limits.cpuWeight()));
                }
            }
            if (controls("pids") && limits.pids() > 0) {
                Files.writeString(dir.resolve("pids.max"), Long.toString(limits.pids()));
            }
            return List.of(dir.resolve("cgroup.procs"));
        }
        if (limits.memoryBytes() > 0) {
            Files.writeString(dir("memory", jobId).resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
        }
        if (controls("cpu")) {
            Path cpu = dir("cpu", jobId);
            Files.writeString(cpu.resolve("cpu.cfs_period_us"), Long.toString(CgroupLimits.CPU_PERIOD_US));
            Files.writeString(cpu.resolve("cpu.cfs_quota_us"), Long.toString(limits.cpuQuotaUs()));
            if (limits.cpuShares() > 0) {
                Files.writeString(cpu.resolve("cpu.shares"), Long.toString(limits.cpuShares()));
            }
        }
        if (controls("pids") && limits.pids() > 0) {
            Files.writeString(dir("pids", jobId).resolve("pids.max"), Long.toString(limits.pids()));
        }
        if (controls("devices")) {
            // it inherits the jobs' allow-list (allowDevices); the node's other GPUs are taken out of it
            for (String rule : limits.deniedDevices()) {
                Files.writeString(dir("devices", jobId).resolve("devices.deny"), rule);
            }
        }
        List<Path> procs = new ArrayList<>();
        for (Path dir : dirs(jobId)) {
            procs.add(dir.resolve("cgroup.procs"));
        }
        return procs;
    }

    /**
     * Deny by default, then allow: the devices controller of the cgroup holding every job's is
     * {@code devices.deny a} followed by {@code rules} (the usual devices, ptys, every GPU of the
     * node: {@link JobDevices#allowRules}), one rule a write as the kernel reads them. A job's cgroup
     * inherits the list and refuses the GPUs it was not given ({@link CgroupLimits#deniedDevices});
     * no job's cgroup can be given more than the list. Without the v1 devices controller, nothing.
     */
    public void allowDevices(List<String> rules) throws IOException {
        if (version != Version.V1 || !controls("devices")) {
            return;
        }
        Path base = bases.get("devices");
        Files.writeString(base.resolve("devices.deny"), "a");
        for (String rule : rules) {
            Files.writeString(base.resolve("devices.allow"), rule);
        }
    }

    /** How much CPU a job used and how long it was throttled; empty without the cpu controller. */
    public Optional<CpuUsage> cpuUsage(String jobId) {
        if (!controls("cpu")) {
            return Optional.empty();
        }
        Map<String, Long> stat = keyed(read(dir("cpu", jobId).resolve("cpu.stat")));
        if (stat.isEmpty()) {
            return Optional.empty();
        }
        if (version == Version.V2) {
            return Optional.of(new CpuUsage(stat.getOrDefault("usage_usec", 0L) * 1000,
                    stat.getOrDefault("throttled_usec", 0L) * 1000, stat.getOrDefault("nr_periods", 0L),
                    stat.getOrDefault("nr_throttled", 0L)));
        }
        long usage = controls("cpuacct") ? parseLong(read(dir("cpuacct", jobId).resolve("cpuacct.usage")).trim()) : 0;
        return Optional.of(new CpuUsage(usage, stat.getOrDefault("throttled_time", 0L), stat.getOrDefault("nr_periods", 0L),
                stat.getOrDefault("nr_throttled", 0L)));
    }

    /** Whether the kernel killed a process of the job for its memory. */
    public boolean oomKilled(String jobId) {
        if (!enabled()) {
            return false;
        }
        Path dir = dir("memory", jobId);
        String events = version == Version.V2 ? read(dir.resolve("memory.events")) : read(dir.resolve("memory.oom_control"));
        Long kills = keyed(events).get("oom_kill");
        return kills != null && kills > 0;
    }

    /** Whether the job's cgroup refused a fork because it reached its process limit. */
    public boolean pidsLimitReached(String jobId) {
        if (!controls("pids")) {
            return false;
        }
        Long max = keyed(read(dir("pids", jobId).resolve("pids.events"))).get("max");
        return max != null && max > 0;
    }

    /** Kills every process in the job's cgroup and removes it; true when it is gone. */
    public boolean killAndRemove(String jobId) {
        if (!enabled()) {
            return true;
        }
        return killAndRemove(dirs(jobId));
    }

    private boolean killAndRemove(List<Path> dirs) {
        Path procs = dirs.get(0);
        if (!Files.isDirectory(procs)) {
            dirs.forEach(JobCgroups::removeQuietly);
            return true;
        }
        Path freezer = version == Version.V1 && controls("freezer") ? dirs.get(dirs.size() - 1) : null;
        if (version == Version.V2) {
            writeIfPresent(procs.resolve("cgroup.kill"), "1");
        }
        // killed processes leave the cgroup as they exit; new ones forked meanwhile are killed next round
        for (int round = 0; round < 2000; round++) {
            if (freezer != null) {
                // frozen, no process can fork while the others are killed
                writeIfPresent(freezer.resolve("freezer.state"), "FROZEN");
            }
            List<Long> pids = pids(procs);
            if (pids.isEmpty()) {
                break;
            }
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            if (freezer != null) {
                // a frozen process dies of SIGKILL only once thawed
                writeIfPresent(freezer.resolve("freezer.state"), "THAWED");
            }
            LockSupport.parkNanos(1_000_000);
        }
        if (freezer != null) {
            writeIfPresent(freezer.resolve("freezer.state"), "THAWED");
        }
        boolean gone = true;
        for (Path dir : dirs) {
            gone &= removeQuietly(dir);
        }
        return gone;
    }

    /** After a restart: the cgroups of jobs of a previous run, their processes killed. */
    public int sweep() {
        if (!enabled()) {
            return 0;
        }
        int swept = 0;
        Set<String> jobs = new LinkedHashSet<>();
        for (Path base : new LinkedHashSet<>(bases.values())) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, Files::isDirectory)) {
                for (Path dir : dirs) {
                    jobs.add(dir.getFileName().toString());
                }
            } catch (IOException e) {
                LOG.warn("cannot sweep job cgroups under {}: {}", base, e.getMessage());
            }
        }
        for (String job : jobs) {
            if (!pids(job).isEmpty()) {
                swept++;
            }
            killAndRemove(job);
        }
        return swept;
    }

    /** Kills whatever is left and removes this agent's cgroups (the agent stops). */
    public void removeAll() {
        if (enabled()) {
            sweep();
            new LinkedHashSet<>(bases.values()).forEach(JobCgroups::removeQuietly);
        }
    }

    /** The processes in a job's cgroup. */
    public List<Long> pids(String jobId) {
        return enabled() ? pids(dir("memory", jobId)) : List.of();
    }

    /** The job's directory in every hierarchy, the memory one first and (v1) the freezer last. */
    private List<Path> dirs(String jobId) {
        Set<Path> dirs = new LinkedHashSet<>();
        for (Path base : bases.values()) {
            dirs.add(base.resolve(jobId));
        }
        return List.copyOf(dirs);
    }

    private Path dir(String controller, String jobId) {
        return bases.get(controller).resolve(jobId);
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

    /** {@code key value} lines as a map (values that are not numbers are left out). */
    private static Map<String, Long> keyed(String text) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length == 2) {
                try {
                    values.put(parts[0], Long.parseLong(parts[1]));
                } catch (NumberFormatException e) {
                    // not a counter
                }
            }
        }
        return values;
    }

    private static long parseLong(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean removeQuietly(Path dir) {
        try {
            Files.deleteIfExists(dir);
            return true;
        } catch (IOException e) {
            // a process not reaped yet keeps it; the next sweep removes it
            return false;
        }
    }

    static String read(Path file) {
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
