package io.grove.agent.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A job's own view of the node's shared places, as Slurm's {@code namespace/tmpfs} gives: it starts
 * in mount and IPC namespaces of its own where {@code /tmp}, {@code /var/tmp} and {@code /run/lock}
 * are its sandbox's {@code tmp/} (counted against its disk, removed with its sandbox), {@code /dev}
 * holds only the devices it may use ({@link JobDevices}: the usual ones, a {@code /dev/pts} of its
 * own, its GPUs), {@code /dev/shm} is a tmpfs as large as its memory
 * (counted against its memory cgroup), its SysV shared memory, semaphores and message queues and
 * its {@code /dev/mqueue} are its own (gone with its last process, whatever it leaves), and
 * {@code /proc} shows only its own processes ({@code hidepid=invisible}). Every place it can write
 * to is {@code nodev,nosuid}.
 *
 * @param sandbox the job's sandbox (its {@code tmp/} becomes the private directories)
 * @param keep the directory that holds the sandbox and the launch script: bound again at its own
 *     path when it lies under a directory made private
 * @param shmBytes the size of its {@code /dev/shm}
 * @param mounts where the agent writes the namespace's mount table (root's, in a directory no job
 *     may write to): every mount is made by one run of {@code mount -a} over it
 * @param dev where its {@code /dev} comes from: a directory of the job's own holding links to the
 *     template's nodes ({@link JobDevices#link}), bound as {@code /dev}; or, with {@code copy}, the
 *     node's device template itself ({@link JobDevices#template}), copied into a tmpfs
 * @param copy whether {@code dev} is the template, copied (the work directory's filesystem does not
 *     let its device nodes be opened: {@code nodev})
 * @param gpus with {@code copy}, the names of the job's GPU nodes in the template's {@code gpu/}
 */
public record JobNamespace(Path sandbox, Path keep, long shmBytes, Path mounts, Path dev, boolean copy, List<String> gpus) {

    /** The directories made private, when the node has them; {@code /tmp} last, as the others are reached through it. */
    static final List<String> PRIVATE = List.of("/var/tmp", "/run/lock", "/tmp");
    /**
     * The script run as root inside the new namespaces, before the job's privileges are dropped:
     * {@code $1} the sandbox, {@code $2} the directory to keep, {@code $3} the mount table,
     * {@code $4} the mount program, {@code $5} cp (empty: the job's {@code /dev} is bound, not
     * copied), {@code $6} where its {@code /dev} comes from, {@code $7} the names of the job's GPU
     * nodes to copy (separated by spaces, or empty), {@code $8} how many cgroups to join and their
     * {@code cgroup.procs} files,
     * then the command that drops privileges. The cgroups are joined first (one shell less than
     * joining before {@code unshare}), so that the mounts and everything after them count against
     * the job. Bind sources are open descriptors, named in the table as {@code /proc/self/fd/N} and
     * not canonicalized, so that covering {@code /tmp} never hides a sandbox that lies under it
     * (tests, {@code grove local}): the directory holding it is bound again at its own path. One
     * {@code mount -a} makes them all, in the table's order, {@code /dev} first: the job's own
     * directory of links bound there, or, where the work directory is {@code nodev}, a tmpfs that one
     * {@code cp -a} then fills from the template (a second one adds the job's GPUs). Either is reached
     * through a descriptor opened before {@code /tmp} could cover it.
     */
    static final String SCRIPT = String.join("\n",
            "set -e",
            "sandbox=$1; keep=$2; table=$3; mount=$4; cp=$5; dev=$6; gpus=$7; joins=$8; shift 8",
            "while [ \"$joins\" -gt 0 ]; do echo $$ > \"$1\" || exit 125; shift; joins=$((joins - 1)); done",
            "exec 7<\"$dev\" 8<\"$keep\" 9<\"$sandbox/tmp\"",
            "\"$mount\" --no-canonicalize --all --fstab \"$table\"",
            "exec 8<&- 9<&-",
            "if [ -n \"$cp\" ]; then \"$cp\" -a /proc/self/fd/7/base/. /dev/; fi",
            "if [ -n \"$cp\" ] && [ -n \"$gpus\" ]; then (cd /proc/self/fd/7/gpu && \"$cp\" -a $gpus /dev/); fi",
            "exec 7<&-",
            "exec \"$@\"");

    public JobNamespace {
        if (!sandbox.startsWith(keep)) {
            throw new IllegalArgumentException(sandbox + " is not under " + keep);
        }
        if (shmBytes <= 0) {
            throw new IllegalArgumentException("/dev/shm needs a size above 0, got " + shmBytes);
        }
        gpus = List.copyOf(gpus);
    }

    /**
     * The namespace's mount table, in {@code fstab} form: {@code /dev} and what lies in it
     * ({@code pts}, {@code shm}, {@code mqueue}), the private directories the node has ({@code /tmp}
     * last), the kept directory again when it lies under one of them (made there first),
     * {@code /proc}.
     */
    String table() {
        StringBuilder table = new StringBuilder();
        // not nodev: the nodes of the allow-list are in it, root's; no job may write to it
        if (copy) {
            line(table, "grove-dev", "/dev", "tmpfs", "mode=0755,size=64k,nosuid,noexec");
        } else {
            line(table, "/proc/self/fd/7", "/dev", "none", "bind,nosuid,noexec");
        }
        line(table, "grove-pts", "/dev/pts", "devpts", "newinstance,ptmxmode=0666,mode=0620,nosuid,noexec,X-mount.mkdir=0755");
        line(table, "grove-shm", "/dev/shm", "tmpfs", "size=" + shmBytes + ",mode=1777,nosuid,nodev,X-mount.mkdir=0755");
        line(table, "grove-mqueue", "/dev/mqueue", "mqueue", "nosuid,nodev,noexec,X-mount.mkdir=0755");
        for (String dir : PRIVATE) {
            if (Files.isDirectory(Path.of(dir))) {
                line(table, "/proc/self/fd/9", dir, "none", "bind,nosuid,nodev");
            }
        }
        if (PRIVATE.stream().anyMatch(dir -> keep.startsWith(dir))) {
            line(table, "/proc/self/fd/8", keep.toString(), "none", "bind,nosuid,nodev,X-mount.mkdir=0711");
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
    void writeTable() throws IOException {
        Files.deleteIfExists(mounts);
        Files.createFile(mounts, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(mounts, table());
    }

    /**
     * Tries a namespace as a job would get it, in {@code scratch}: {@code null} when the machine
     * allows it, else why not (a container without {@code CAP_SYS_ADMIN}, for one).
     */
    public static String probe(SystemPrograms programs, Path scratch) {
        if (programs.unshare() == null || programs.mount() == null || programs.mknod() == null || programs.cp() == null) {
            return "unshare, mount, mknod or cp is missing";
        }
        try {
            Files.createDirectories(scratch.resolve("tmp"));
            Path template = JobDevices.template(programs, scratch.resolve("dev"), List.of());
            boolean copy = !JobDevices.opensNodes(template);
            JobNamespace namespace = new JobNamespace(scratch, scratch, 1 << 20, scratch.resolve("mounts"),
                    copy ? template : JobDevices.link(template, scratch.resolve("job-dev"), List.of()), copy, List.of());
            namespace.writeTable();
            List<String> command = new ArrayList<>(namespace.command(programs, List.of()));
            // its /dev works: /dev/null opens
            command.addAll(List.of(programs.bash().toString(), "--noprofile", "--norc", "-c", "true > /dev/null"));
            Process process = programs.builder(command).redirectErrorStream(true).start();
            String said = new String(process.getInputStream().readNBytes(4096), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "making a mount namespace did not finish within 30 s";
            }
            return process.exitValue() == 0 ? null : said.strip().isEmpty() ? "exit " + process.exitValue() : said.strip();
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            try {
                Trees.delete(scratch);
            } catch (IOException e) {
                // a scratch directory of the agent's; the next start removes it
            }
        }
    }

    /**
     * The command that makes the namespace, joins the {@code cgroup.procs} files {@code join} and
     * runs what follows it in the namespace (as root still).
     */
    List<String> command(SystemPrograms programs, List<Path> join) {
        List<String> command = new ArrayList<>(List.of(programs.unshare().toString(), "--mount", "--ipc",
                "--propagation", "private", "--", programs.bash().toString(), "--noprofile", "--norc", "-c", SCRIPT,
                "grove-namespace", sandbox.toString(), keep.toString(), mounts.toString(),
                programs.mount().toString(), copy ? programs.cp().toString() : "", dev.toString(), String.join(" ", gpus),
                Integer.toString(join.size())));
        join.forEach(path -> command.add(path.toString()));
        return command;
    }
}
