package io.grove.agent.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.agent.gpu.Gpu;
import io.grove.agent.job.JobDevices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OCI bundle of one image job: its {@code config.json}, the agent's alone (0600), which the
 * runtime reads as root. The job gets:
 * <ul>
 * <li>the image's root filesystem, read-only, shared by every job of the image;</li>
 * <li>its sandbox at the same path as a bare job's, read-write, as {@code HOME} and working
 *     directory, on a small tmpfs that hides the other jobs' sandboxes;</li>
 * <li>its own {@code /tmp} and {@code /var/tmp} (its sandbox's {@code tmp/}, counted against its
 *     disk) and {@code /dev/shm} (a tmpfs as large as its memory);</li>
 * <li>its own uid and gid, no new privileges, no capabilities; PID, IPC and mount namespaces of
 *     its own; the host's network (and its {@code /etc/hosts} and {@code /etc/resolv.conf});</li>
 * <li>in {@code /dev}, the usual devices and its GPUs and nothing else; the devices controller of its
 *     cgroup allows just those ({@link JobDevices}), and its image was unpacked without device nodes
 *     or set-id bits ({@code ImageStore}).</li>
 * </ul>
 * Its environment is the image's {@code Env}, then the job's. Its cgroup is the job's own, joined
 * before the runtime starts: the runtime manages no cgroup, so every limit of a bare job holds.
 */
public final class OciBundle {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Files of the host that a job with the host's network sees as they are, read-only. */
    static final List<String> HOST_FILES = List.of("/etc/hosts", "/etc/resolv.conf");

    private OciBundle() {
    }

    /**
     * What one image job runs.
     *
     * @param args what it runs: {@code /bin/sh -c COMMAND}, or the image's entry point and command
     * @param env its whole environment, the image's first
     * @param rootfs the image's root filesystem on the host
     * @param sandbox the job's sandbox
     * @param sandboxes the directory holding every job's sandbox (covered by a tmpfs in the container)
     * @param shmBytes the size of its {@code /dev/shm}
     * @param maxFileBytes the largest file it may write ({@code RLIMIT_FSIZE}: its disk limit); 0 for none
     */
    public record Spec(List<String> args, Map<String, String> env, int uid, int gid, Path rootfs, Path sandbox,
            Path sandboxes, long shmBytes, List<Gpu> gpus, long maxFileBytes) {
    }

    /**
     * The environment of an image job: the image's {@code Env}, then the job's; the job's base
     * {@code PATH} and {@code LANG} give way to the image's unless the spec set them.
     */
    public static Map<String, String> environment(ImageConfig image, Map<String, String> job, Map<String, String> spec) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : image.env()) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        for (Map.Entry<String, String> entry : job.entrySet()) {
            boolean base = entry.getKey().equals("PATH") || entry.getKey().equals("LANG");
            if (!base || spec.containsKey(entry.getKey()) || !env.containsKey(entry.getKey())) {
                env.put(entry.getKey(), entry.getValue());
            }
        }
        return env;
    }

    /**
     * What an image job runs, or why it cannot run.
     *
     * @throws PullException saying what the image lacks
     */
    public static List<String> args(ImageConfig image, Path rootfs, String command, String reference) throws PullException {
        try {
            if (!Files.getPosixFilePermissions(rootfs).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                throw new PullException("image " + reference + " cannot run as the job's user: its root directory is mode "
                        + PosixFilePermissions.toString(Files.getPosixFilePermissions(rootfs))
                        + ", closed to everyone but the image's root");
            }
        } catch (PullException e) {
            throw e;
        } catch (IOException e) {
            throw new PullException("image " + reference + " cannot be read: " + e.getMessage());
        }
        if (command != null && !command.isEmpty()) {
            if (!Rootfs.isFile(rootfs, "/bin/sh")) {
                throw new PullException("image " + reference + " has no /bin/sh to run the task's command; give no "
                        + "command to run the image's own entry point, or use an image with a shell");
            }
            return List.of("/bin/sh", "-c", command);
        }
        List<String> args = image.defaultArgs();
        if (args.isEmpty()) {
            throw new PullException("image " + reference + " sets no Entrypoint or Cmd, and the task gives no command");
        }
        if (!Rootfs.hasProgram(rootfs, args.get(0), image.path())) {
            throw new PullException("image " + reference + " cannot run: its entry point " + args.get(0)
                    + " is not in the image");
        }
        return args;
    }

    /** The mount points a container of an image needs in the shared root (what is mounted inside {@code /dev} and the
     * sandboxes' tmpfs is the container's own): made before it starts ({@link Rootfs#mountPoint}). */
    static final List<String> SHARED_MOUNT_POINTS = List.of("/proc", "/dev", "/sys", "/tmp", "/var/tmp");

    /** Writes {@code dir/config.json} (0600), replacing any, and makes the mount points the root lacks. */
    public static void write(Path dir, Spec spec) throws IOException {
        for (String point : SHARED_MOUNT_POINTS) {
            Rootfs.mountPoint(spec.rootfs(), point, false);
        }
        Rootfs.mountPoint(spec.rootfs(), spec.sandboxes().toString(), false);
        for (String file : HOST_FILES) {
            if (Files.isRegularFile(Path.of(file))) {
                Rootfs.mountPoint(spec.rootfs(), file, true);
            }
        }
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path config = dir.resolve("config.json");
        Files.deleteIfExists(config);
        Files.createFile(config, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(config, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(config(spec)));
    }

    static OciConfig config(Spec spec) {
        List<OciConfig.Rlimit> rlimits = spec.maxFileBytes() > 0
                ? List.of(new OciConfig.Rlimit("RLIMIT_FSIZE", spec.maxFileBytes(), spec.maxFileBytes())) : List.of();
        List<String> env = new ArrayList<>();
        spec.env().forEach((name, value) -> env.add(name + "=" + value));
        OciConfig.Process process = new OciConfig.Process(false, new OciConfig.User(spec.uid(), spec.gid()), spec.args(),
                env, spec.sandbox().toString(), true, rlimits, OciConfig.Capabilities.NONE);
        String tmp = spec.sandbox().resolve("tmp").toString();
        List<OciConfig.Mount> mounts = new ArrayList<>(List.of(
                OciConfig.Mount.of("/proc", "proc", "proc", "nosuid", "noexec", "nodev"),
                OciConfig.Mount.of("/dev", "tmpfs", "tmpfs", "nosuid", "strictatime", "mode=755", "size=65536k"),
                OciConfig.Mount.of("/dev/pts", "devpts", "devpts", "nosuid", "noexec", "newinstance", "ptmxmode=0666",
                        "mode=0620"),
                OciConfig.Mount.of("/dev/shm", "tmpfs", "grove-shm", "nosuid", "nodev", "mode=1777",
                        "size=" + spec.shmBytes()),
                OciConfig.Mount.of("/dev/mqueue", "mqueue", "mqueue", "nosuid", "noexec", "nodev"),
                OciConfig.Mount.of("/sys", "sysfs", "sysfs", "nosuid", "noexec", "nodev", "ro"),
                OciConfig.Mount.of("/tmp", "bind", tmp, "rbind", "nosuid", "nodev"),
                OciConfig.Mount.of("/var/tmp", "bind", tmp, "rbind", "nosuid", "nodev"),
                // the other jobs' sandboxes are not there: a small tmpfs covers the directory that holds them
                OciConfig.Mount.of(spec.sandboxes().toString(), "tmpfs", "grove-sandboxes", "nosuid", "nodev", "mode=755",
                        "size=64k"),
                OciConfig.Mount.of(spec.sandbox().toString(), "bind", spec.sandbox().toString(), "rbind", "nosuid",
                        "nodev")));
        for (String file : HOST_FILES) {
            if (Files.isRegularFile(Path.of(file))) {
                mounts.add(OciConfig.Mount.of(file, "bind", file, "rbind", "ro", "nosuid", "nodev", "noexec"));
            }
        }
        List<OciConfig.Device> devices = new ArrayList<>();
        for (JobDevices.Node node : JobDevices.gpuNodes(spec.gpus())) {
            devices.add(OciConfig.Device.character("/dev/" + node.name(), node.major(), node.minor()));
        }
        OciConfig.Linux linux = new OciConfig.Linux(
                List.of(new OciConfig.Namespace("pid"), new OciConfig.Namespace("ipc"), new OciConfig.Namespace("mount")),
                devices,
                List.of("/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys", "/proc/latency_stats",
                        "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/proc/scsi", "/sys/firmware"),
                List.of("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"));
        return new OciConfig("1.0.2", process, new OciConfig.Root(spec.rootfs().toString(), true), mounts, linux);
    }
}
