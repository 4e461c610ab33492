package io.grove.agent.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.agent.gpu.Gpu;
import io.grove.agent.job.JobDevices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
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

    /** Writes {@code dir/config.json} (0600), replacing any. */
    public static void write(Path dir, Spec spec) throws IOException {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path config = dir.resolve("config.json");
        Files.deleteIfExists(config);
        Files.createFile(config, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(config, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(config(spec)));
    }

    static ObjectNode config(Spec spec) {
        ObjectNode root = JSON.createObjectNode();
        root.put("ociVersion", "1.0.2");
        ObjectNode process = root.putObject("process");
        process.put("terminal", false);
        ObjectNode user = process.putObject("user");
        user.put("uid", spec.uid());
        user.put("gid", spec.gid());
        ArrayNode args = process.putArray("args");
        spec.args().forEach(args::add);
        ArrayNode env = process.putArray("env");
        spec.env().forEach((name, value) -> env.add(name + "=" + value));
        process.put("cwd", spec.sandbox().toString());
        process.put("noNewPrivileges", true);
        if (spec.maxFileBytes() > 0) {
            ObjectNode fsize = process.putArray("rlimits").addObject();
            fsize.put("type", "RLIMIT_FSIZE");
            fsize.put("hard", spec.maxFileBytes());
            fsize.put("soft", spec.maxFileBytes());
        }
        ObjectNode caps = process.putObject("capabilities");
        for (String set : List.of("bounding", "effective", "inheritable", "permitted", "ambient")) {
            caps.putArray(set);
        }
        ObjectNode fsRoot = root.putObject("root");
        fsRoot.put("path", spec.rootfs().toString());
        fsRoot.put("readonly", true);
        ArrayNode mounts = root.putArray("mounts");
        mount(mounts, "/proc", "proc", "proc", "nosuid", "noexec", "nodev");
        mount(mounts, "/dev", "tmpfs", "tmpfs", "nosuid", "strictatime", "mode=755", "size=65536k");
        mount(mounts, "/dev/pts", "devpts", "devpts", "nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620");
        mount(mounts, "/dev/shm", "tmpfs", "grove-shm", "nosuid", "nodev", "mode=1777", "size=" + spec.shmBytes());
        mount(mounts, "/dev/mqueue", "mqueue", "mqueue", "nosuid", "noexec", "nodev");
        mount(mounts, "/sys", "sysfs", "sysfs", "nosuid", "noexec", "nodev", "ro");
        String tmp = spec.sandbox().resolve("tmp").toString();
        mount(mounts, "/tmp", "bind", tmp, "rbind", "nosuid", "nodev");
        mount(mounts, "/var/tmp", "bind", tmp, "rbind", "nosuid", "nodev");
        // the other jobs' sandboxes are not there: a small tmpfs covers the directory that holds them
        mount(mounts, spec.sandboxes().toString(), "tmpfs", "grove-sandboxes", "nosuid", "nodev", "mode=755", "size=64k");
        mount(mounts, spec.sandbox().toString(), "bind", spec.sandbox().toString(), "rbind", "nosuid", "nodev");
        for (String file : HOST_FILES) {
            if (Files.isRegularFile(Path.of(file))) {
                mount(mounts, file, "bind", file, "rbind", "ro", "nosuid", "nodev", "noexec");
            }
        }
        ObjectNode linux = root.putObject("linux");
        ArrayNode namespaces = linux.putArray("namespaces");
        for (String type : List.of("pid", "ipc", "mount")) {
            namespaces.addObject().put("type", type);
        }
        ArrayNode devices = linux.putArray("devices");
        for (JobDevices.Node node : JobDevices.gpuNodes(spec.gpus())) {
            device(devices, "/dev/" + node.name(), node.major(), node.minor());
        }
        ArrayNode masked = linux.putArray("maskedPaths");
        List.of("/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list",
                "/proc/timer_stats", "/proc/sched_debug", "/proc/scsi", "/sys/firmware").forEach(masked::add);
        ArrayNode readonly = linux.putArray("readonlyPaths");
        List.of("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger").forEach(readonly::add);
        return root;
    }

    private static void mount(ArrayNode mounts, String destination, String type, String source, String... options) {
        ObjectNode mount = mounts.addObject();
        mount.put("destination", destination);
        mount.put("type", type);
        mount.put("source", source);
        ArrayNode list = mount.putArray("options");
        for (String option : options) {
            list.add(option);
        }
    }

    private static void device(ArrayNode devices, String path, long major, long minor) {
        ObjectNode device = devices.addObject();
        device.put("path", path);
        device.put("type", "c");
        device.put("major", major);
        device.put("minor", minor);
        device.put("fileMode", 0666);
        device.put("uid", 0);
        device.put("gid", 0);
    }
}
