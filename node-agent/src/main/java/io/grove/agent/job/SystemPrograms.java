package io.grove.agent.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The programs the agent runs itself ({@code setsid}, {@code setpriv}, {@code bash}, and as root
 * {@code unshare}, {@code mount}, {@code mknod} and {@code cp} for a job's namespace), found once at
 * start at their absolute paths in the system's own directories, never through a {@code PATH};
 * when the agent is root each
 * must be owned by root and writable by nobody else. They are started with {@link #ENVIRONMENT}
 * and nothing else, so no variable of a job or of the agent reaches a process that still has the
 * agent's privileges.
 */
public record SystemPrograms(Path setsid, Path setpriv, Path bash, Path unshare, Path mount, Path mknod, Path cp) {

    /** Where each program may be, in order: the system's own directories, never a {@code PATH}. */
    static final List<Path> SETSID = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));
    static final List<Path> SETPRIV = List.of(Path.of("/usr/bin/setpriv"), Path.of("/bin/setpriv"));
    static final List<Path> BASH = List.of(Path.of("/usr/bin/bash"), Path.of("/bin/bash"));
    static final List<Path> UNSHARE = List.of(Path.of("/usr/bin/unshare"), Path.of("/bin/unshare"));
    static final List<Path> MOUNT = List.of(Path.of("/usr/bin/mount"), Path.of("/bin/mount"));
    static final List<Path> MKNOD = List.of(Path.of("/usr/bin/mknod"), Path.of("/bin/mknod"));
    static final List<Path> CP = List.of(Path.of("/usr/bin/cp"), Path.of("/bin/cp"));

    /** The programs without those of a job's namespace (tests: a machine that has none). */
    public SystemPrograms withoutNamespace() {
        return new SystemPrograms(setsid, setpriv, bash, null, null, null, null);
    }

    /** The programs with another {@code mount} (tests: one that fails). */
    public SystemPrograms withMount(Path other) {
        return new SystemPrograms(setsid, setpriv, bash, unshare, other, mknod, cp);
    }

    /** The whole environment of every process the agent starts before a job's privileges are dropped. */
    public static final Map<String, String> ENVIRONMENT = Map.of("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", "LANG", "C");

    /**
     * Finds the programs.
     *
     * @param needSetpriv whether jobs switch users (the agent is root), so {@code setpriv} must exist
     * @throws IOException if one is missing or, for a root agent, not owned by root or writable by others
     */
    public static SystemPrograms find(boolean needSetpriv) throws IOException {
        boolean root = JobUsers.processIsRoot();
        Path setsid = locate(SETSID, "util-linux", root);
        Path setpriv = needSetpriv ? locate(SETPRIV, "util-linux", root) : null;
        Path bash = locate(BASH, "bash", root);
        // a job's own /tmp, /var/tmp, /dev/shm and /proc need a mount namespace: root only
        Path unshare = needSetpriv ? locate(UNSHARE, "util-linux", root) : null;
        Path mount = needSetpriv ? locate(MOUNT, "mount", root) : null;
        // and its own /dev: the nodes it may use, made once in a template and copied into a tmpfs
        Path mknod = needSetpriv ? locate(MKNOD, "coreutils", root) : null;
        Path cp = needSetpriv ? locate(CP, "coreutils", root) : null;
        return new SystemPrograms(setsid, setpriv, bash, unshare, mount, mknod, cp);
    }

    /**
     * The first of {@code candidates} that is an executable file; for a root agent, owned by root
     * and writable by nobody else.
     *
     * @throws IOException naming the package to install, or why the program may not be run
     */
    public static Path locate(List<Path> candidates, String pkg, boolean root) throws IOException {
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                if (root) {
                    checkOwnedByRoot(candidate.toRealPath());
                }
                return candidate;
            }
        }
        throw new IOException("none of " + candidates + " exists (install " + pkg + ")");
    }

    private static void checkOwnedByRoot(Path program) throws IOException {
        Object owner = Files.getAttribute(program, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(program, LinkOption.NOFOLLOW_LINKS);
        if (!Integer.valueOf(0).equals(owner) || perms.contains(PosixFilePermission.GROUP_WRITE)
                || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException(program + " is not owned by root or is writable by others: an agent running as root "
                    + "will not run it");
        }
    }

    /** Starts a process of the agent's (not a job's): fixed environment, no input, output discarded. */
    public ProcessBuilder builder(List<String> command) {
        return fixed(command);
    }

    /** A process of the agent's by absolute path, with {@link #ENVIRONMENT} and nothing else. */
    public static ProcessBuilder fixed(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().putAll(ENVIRONMENT);
        return builder;
    }
}
