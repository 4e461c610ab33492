package io.grove.agent.job;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code /proc/self/mountinfo} and {@code /proc/self/cgroup}: where each cgroup hierarchy is
 * mounted and where this process sits in it. Mount points are taken under a root folder: {@code /}
 * on a node, a temporary directory in tests, so that the same mount table and the same file logic
 * run on a fake cgroup filesystem for any user.
 */
final class CgroupMounts {

    private final List<String> mountinfo;
    private final List<String> membership;
    private final Path root;

    CgroupMounts(List<String> mountinfo, List<String> membership) {
        this(mountinfo, membership, Path.of("/"));
    }

    CgroupMounts(List<String> mountinfo, List<String> membership, Path root) {
        this.mountinfo = mountinfo;
        this.membership = membership;
        this.root = root;
    }

    /** The cgroup v2 mount, if any. */
    Optional<Path> v2() {
        return mountOf("cgroup2", null);
    }

    /**
     * This process's own cgroup directory in the v1 hierarchy of {@code controller}, if that
     * controller is mounted.
     */
    Optional<Path> v1Own(String controller) {
        return mountOf("cgroup", controller).map(mount -> mount.resolve(relative(pathIn(controller))));
    }

    /** This process's own cgroup directory in the v2 hierarchy mounted at {@code mount}. */
    Path v2Own(Path mount) {
        return mount.resolve(relative(pathIn("")));
    }

    private Optional<Path> mountOf(String type, String option) {
        for (String line : mountinfo) {
            int dash = line.indexOf(" - ");
            if (dash < 0) {
                continue;
            }
            String[] before = line.substring(0, dash).split(" ");
            String[] after = line.substring(dash + 3).split(" ");
            if (after.length >= 3 && after[0].equals(type) && before.length >= 5 && before[3].equals("/")
                    && (option == null || List.of(after[2].split(",")).contains(option))) {
                return Optional.of(root.resolve(relative(before[4])));
            }
        }
        return Optional.empty();
    }

    /** The process's cgroup path in the hierarchy of {@code controller} ("" for v2). */
    private String pathIn(String controller) {
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
}
