package io.grove.agent.job;

import java.nio.file.Path;
import java.util.List;

/**
 * A job's own view of the node's shared places, as Slurm's {@code namespace/tmpfs} gives: it starts
 * in a mount namespace of its own where {@code /tmp}, {@code /var/tmp} and {@code /run/lock} are
 * its sandbox's {@code tmp/} (counted against its disk, removed with its sandbox), {@code /dev/shm}
 * is a tmpfs as large as its memory (counted against its memory cgroup), and {@code /proc} shows
 * only its own processes ({@code hidepid=invisible}). Everything is gone when its last process ends.
 *
 * @param sandbox the job's sandbox (its {@code tmp/} becomes the private directories)
 * @param keep the directory that holds the sandbox and the launch script: bound again at its own
 *     path when it lies under a directory made private
 * @param shmBytes the size of its {@code /dev/shm}
 * @param mounts where the agent writes the namespace's mount table (root's, in a directory no job
 *     may write to): every mount is made by one run of {@code mount -a} over it
 */
public record JobNamespace(Path sandbox, Path keep, long shmBytes, Path mounts) {

    /** The directories made private, when the node has them; {@code /tmp} last, as the others are reached through it. */
    static final List<String> PRIVATE = List.of("/var/tmp", "/run/lock", "/tmp");

    /**
     * The script run as root inside the new namespace, before the job's privileges are dropped:
     * {@code $1} the sandbox, {@code $2} the directory to keep, {@code $3} the mount table,
     * {@code $4} the mount program, {@code $5} how many cgroups to join and their
     * {@code cgroup.procs} files, then the command that drops privileges. The cgroups are joined
     * first (one shell less than joining before {@code unshare}), so that the mounts and everything
     * after them count against the job. Bind sources are open descriptors, named in the table as
     * {@code /proc/self/fd/N} and not canonicalized, so that covering {@code /tmp} never hides a
     * sandbox that lies under it (tests, {@code grove local}): the directory holding it is bound
     * again at its own path. One {@code mount -a} makes them all, in the table's order.
     */
    static final String SCRIPT = String.join("\n",
            "set -e",
            "sandbox=$1; keep=$2; table=$3; mount=$4; joins=$5; shift 5",
            "while [ \"$joins\" -gt 0 ]; do echo $$ > \"$1\" || exit 125; shift; joins=$((joins - 1)); done",
            "exec 8<\"$keep\" 9<\"$sandbox/tmp\"",
            "\"$mount\" --no-canonicalize --all --fstab \"$table\"",
            "exec 8<&- 9<&-",
            "exec \"$@\"");

    /**
     * The namespace's mount table, in {@code fstab} form: {@code /dev/shm}, the private directories
     * the node has ({@code /tmp} last), the kept directory again when it lies under one of them
     * (made there first), {@code /proc}.
     */
    String table() {
        StringBuilder table = new StringBuilder();
        line(table, "grove-shm", "/dev/shm", "tmpfs", "size=" + shmBytes + ",mode=1777,nosuid,nodev");
        for (String dir : PRIVATE) {
            if (java.nio.file.Files.isDirectory(Path.of(dir))) {
                line(table, "/proc/self/fd/9", dir, "none", "bind");
            }
        }
        if (PRIVATE.stream().anyMatch(dir -> keep.startsWith(dir))) {
            line(table, "/proc/self/fd/8", keep.toString(), "none", "bind,X-mount.mkdir=0711");
        }
        line(table, "grove-proc", "/proc", "proc", "hidepid=invisible,nosuid,nodev,noexec");
        return table.toString();
    }

    private static void line(StringBuilder table, String source, String target, String type, String options) {
        table.append(escape(source)).append(' ').append(escape(target)).append(' ').append(type).append(' ')
                .append(options).append(" 0 0\n");
    }

    /** A field of a mount table: white space and backslashes as octal escapes, as {@code fstab(5)} reads them. */
    static String escape(String field) {
        StringBuilder out = new StringBuilder();
        for (char c : field.toCharArray()) {
            switch (c) {
                case ' ' -> out.append("\\040");
                case '\t' -> out.append("\\011");
                case '\n' -> out.append("\\012");
                case '\\' -> out.append("\\134");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** Writes the mount table (the agent's, 0600), replacing one a crashed start may have left. */
    void writeTable() throws java.io.IOException {
        java.nio.file.Files.deleteIfExists(mounts);
        java.nio.file.Files.createFile(mounts, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        java.nio.file.Files.writeString(mounts, table());
    }

    public JobNamespace {
        if (!sandbox.startsWith(keep)) {
            throw new IllegalArgumentException(sandbox + " is not under " + keep);
        }
        if (shmBytes <= 0) {
            throw new IllegalArgumentException("/dev/shm needs a size above 0, got " + shmBytes);
        }
    }

    /**
     * Tries a namespace as a job would get it, in {@code scratch}: {@code null} when the machine
     * allows it, else why not (a container without {@code CAP_SYS_ADMIN}, for one).
     */
    public static String probe(SystemPrograms programs, Path scratch) {
        if (programs.unshare() == null || programs.mount() == null) {
            return "unshare or mount is missing";
        }
        try {
            java.nio.file.Files.createDirectories(scratch.resolve("tmp"));
            JobNamespace namespace = new JobNamespace(scratch, scratch, 1 << 20, scratch.resolve("mounts"));
            namespace.writeTable();
            List<String> command = new java.util.ArrayList<>(namespace.command(programs, List.of()));
            command.addAll(List.of(programs.bash().toString(), "--noprofile", "--norc", "-c", "true"));
            Process process = programs.builder(command).redirectErrorStream(true).start();
            String said = new String(process.getInputStream().readNBytes(4096), java.nio.charset.StandardCharsets.UTF_8);
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "making a mount namespace did not finish within 30 s";
            }
            return process.exitValue() == 0 ? null : said.strip().isEmpty() ? "exit " + process.exitValue() : said.strip();
        } catch (java.io.IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            try {
                Trees.delete(scratch);
            } catch (java.io.IOException e) {
                // a scratch directory of the agent's; the next start removes it
            }
        }
    }

    /**
     * The command that makes the namespace, joins the {@code cgroup.procs} files {@code join} and
     * runs what follows it in the namespace (as root still).
     */
    List<String> command(SystemPrograms programs, List<Path> join) {
        List<String> command = new java.util.ArrayList<>(List.of(programs.unshare().toString(), "--mount",
                "--propagation", "private", "--", programs.bash().toString(), "--noprofile", "--norc", "-c", SCRIPT,
                "grove-namespace", sandbox.toString(), keep.toString(), mounts.toString(),
                programs.mount().toString(), Integer.toString(join.size())));
        join.forEach(path -> command.add(path.toString()));
        return command;
    }
}
