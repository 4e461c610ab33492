package io.grove.agent.job;

import io.grove.agent.gpu.Gpu;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The devices a job may use, and nothing else: deny by default, then allow. Every job gets the
 * harmless character devices a program expects ({@link #BASE}) and a terminal multiplexer of its
 * own ({@code /dev/pts}, a new instance); a job with GPUs also gets its own GPUs and NVIDIA's
 * control devices. The same list is enforced twice: by the devices controller (cgroup v1: {@code
 * devices.deny a}, then one {@code devices.allow} per device) and by the job's own {@code /dev} (a
 * tmpfs holding just these nodes, made in its mount namespace; an image job's runtime makes the
 * same). Nothing a job brings can add a device: no job has {@code CAP_MKNOD}, every place it can
 * write to is mounted {@code nodev}, and image layers are unpacked without device nodes.
 */
public final class JobDevices {

    /** A character device node of a job's {@code /dev}. */
    public record Node(String name, int major, int minor) {

        /** Its devices-controller rule. */
        String rule() {
            return "c " + major + ":" + minor + " rwm";
        }
    }

    /** What every job may open. */
    public static final List<Node> BASE = List.of(new Node("null", 1, 3), new Node("zero", 1, 5), new Node("full", 1, 7),
            new Node("random", 1, 8), new Node("urandom", 1, 9), new Node("tty", 5, 0), new Node("ptmx", 5, 2));
    /** The pseudo-terminals of a job's own {@code /dev/pts} (Unix 98 ptys: majors 136..143). */
    static final List<String> PTS = List.of("c 136:* rwm", "c 137:* rwm", "c 138:* rwm", "c 139:* rwm",
            "c 140:* rwm", "c 141:* rwm", "c 142:* rwm", "c 143:* rwm");
    /** NVIDIA's control devices, given with a job's GPUs when the host has them. */
    public static final List<String> GPU_CONTROL = List.of("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools");

    private JobDevices() {
    }

    /** The links of every job's {@code /dev}, as every Linux system has them: name, target. */
    static final List<List<String>> LINKS = List.of(List.of("ptmx", "pts/ptmx"), List.of("fd", "/proc/self/fd"),
            List.of("stdin", "/proc/self/fd/0"), List.of("stdout", "/proc/self/fd/1"), List.of("stderr", "/proc/self/fd/2"));

    /**
     * Makes the node's device template in {@code dir} (replacing any), root's alone (0700): {@code
     * base/} holds what every job's {@code /dev} starts as ({@link #BASE} but {@code ptmx}, which is
     * a link into its own {@code /dev/pts}; the usual links; empty {@code pts}, {@code shm} and
     * {@code mqueue}), {@code gpu/} the node's GPUs and control devices. A job's {@code /dev} links to
     * its nodes ({@link #link}), or copies them where they cannot be opened: nothing is made with
     * {@code mknod} on a job's start.
     *
     * @return {@code dir}
     * @throws IOException if a node cannot be made
     */
    public static Path template(SystemPrograms programs, Path dir, List<Gpu> gpus) throws IOException {
        devDir(dir, "base", (path, node) -> mknod(programs, path, node));
        Path gpu = Files.createDirectory(dir.resolve("gpu"));
        for (Node node : gpuNodes(gpus)) {
            mknod(programs, gpu.resolve(node.name()), node);
        }
        return dir;
    }

    /** Puts a node where a {@code /dev} needs it. */
    private interface NodeMaker {
        void make(Path path, Node node) throws IOException;
    }

    /**
     * Makes {@code root} anew (0700, root's) and in it {@code name} (0755): the nodes of {@link #BASE}
     * but {@code ptmx} (by {@code maker}), the usual links, and the empty directories a job's
     * namespace mounts on.
     */
    private static Path devDir(Path root, String name, NodeMaker maker) throws IOException {
        if (Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            Trees.delete(root);
        }
        SafeDirs.ensure(root, "rwx------");
        Path dir = Files.createDirectory(root.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (Node node : BASE) {
            if (!node.name().equals("ptmx")) {
                maker.make(dir.resolve(node.name()), node);
            }
        }
        for (List<String> link : LINKS) {
            Files.createSymbolicLink(dir.resolve(link.get(0)), Path.of(link.get(1)));
        }
        for (String sub : List.of("pts", "shm", "mqueue")) {
            Files.createDirectory(dir.resolve(sub));
        }
        return dir;
    }

    /**
     * Whether the device nodes of the template can be opened where it lies: not on a filesystem
     * mounted {@code nodev} (then each job's {@code /dev} is copied into a tmpfs instead).
     */
    public static boolean opensNodes(Path template) {
        try (FileChannel ignored = FileChannel.open(
                template.resolve("base").resolve("null"), StandardOpenOption.WRITE)) {
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * A job's {@code /dev} as a directory of its own, {@code root/dev} (made anew, root's, 0755, in
     * {@code root}, 0700, so no other job can reach it by its path): hard links to the template's
     * nodes (the same nodes, so no {@code mknod} at a job's start), its GPUs', the usual links and the
     * empty directories its namespace mounts on. Bound as the job's {@code /dev}; no job may write to
     * it.
     *
     * @return {@code root/dev}
     */
    public static Path link(Path template, Path root, List<String> gpus) throws IOException {
        Path base = template.resolve("base");
        Path dir = devDir(root, "dev", (path, node) -> Files.createLink(path, base.resolve(node.name())));
        for (String gpu : gpus) {
            Files.createLink(dir.resolve(gpu), template.resolve("gpu").resolve(gpu));
        }
        return dir;
    }

    /** The names of a job's GPU nodes in the template's {@code gpu/}. */
    public static List<String> gpuNames(List<Gpu> gpus) {
        return gpuNodes(gpus).stream().map(Node::name).toList();
    }

    private static void mknod(SystemPrograms programs, Path path, Node node) throws IOException {
        try {
            Process process = programs.builder(List.of(programs.mknod().toString(), "-m", "0666", path.toString(), "c",
                    Integer.toString(node.major()), Integer.toString(node.minor()))).redirectErrorStream(true).start();
            String said = new String(process.getInputStream().readNBytes(4096), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IOException("cannot make the device node " + path + ": " + said.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making " + path, e);
        }
    }

    /** A job's GPUs and, when it has any, the control devices the host has. */
    public static List<Node> gpuNodes(List<Gpu> gpus) {
        List<Node> nodes = new ArrayList<>();
        if (gpus.isEmpty()) {
            return nodes;
        }
        for (Gpu gpu : gpus) {
            nodes.add(new Node("nvidia" + gpu.minor(), Gpu.MAJOR, gpu.minor()));
        }
        for (String control : GPU_CONTROL) {
            long[] numbers = numbers(Path.of(control));
            if (numbers != null) {
                nodes.add(new Node(Path.of(control).getFileName().toString(), (int) numbers[0], (int) numbers[1]));
            }
        }
        return nodes;
    }

    /** The devices controller's allow rules of a job with {@code gpus}: {@link #BASE}, its ptys, its GPUs. */
    public static List<String> allowRules(List<Gpu> gpus) {
        List<String> rules = new ArrayList<>();
        BASE.forEach(node -> rules.add(node.rule()));
        rules.addAll(PTS);
        gpuNodes(gpus).forEach(node -> rules.add(node.rule()));
        return rules;
    }

    /** The devices controller's rules of the node's GPUs a job holding {@code own} was not given. */
    public static List<String> denyRules(List<Gpu> all, List<Gpu> own) {
        return all.stream().filter(g -> !own.contains(g))
                .map(g -> new Node("nvidia" + g.minor(), Gpu.MAJOR, g.minor()).rule()).toList();
    }

    /** A character device's major and minor numbers, or {@code null} when it is not one. */
    public static long[] numbers(Path device) {
        try {
            if (!Files.exists(device, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            int mode = (Integer) Files.getAttribute(device, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            if ((mode & 0170000) != 0020000) {
                return null;
            }
            long rdev = ((Number) Files.getAttribute(device, "unix:rdev", LinkOption.NOFOLLOW_LINKS)).longValue();
            long major = ((rdev >> 8) & 0xfff) | ((rdev >> 32) & ~0xfffL);
            long minor = (rdev & 0xff) | ((rdev >> 12) & ~0xffL);
            return new long[] {major, minor};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
