package io.grove.agent.job;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Starts each job as its own session and process group, so signals sent to the group reach every
 * process it started, even those re-parented after their parent exited:
 * <pre>
 * [/usr/bin/bash -c 'echo $$ &gt; CGROUP/cgroup.procs; exec "$@"'] \    with cgroups: join them first
 *   /usr/bin/setsid [/usr/bin/setpriv --reuid=U --regid=G --clear-groups --no-new-privs --] \
 *   /usr/bin/bash --noprofile --norc LAUNCH_SCRIPT                      as the job's user from here on
 * </pre>
 * or, with a private {@code /tmp} (a root agent), the namespace's script joins the cgroups:
 * <pre>
 * /usr/bin/unshare --mount ... bash -c NAMESPACE_SCRIPT \              as root: cgroups, /tmp, /dev/shm, /proc
 *   /usr/bin/setsid /usr/bin/setpriv ... -- /usr/bin/bash --noprofile --norc LAUNCH_SCRIPT
 * </pre>
 * A job in a container image runs instead as
 * {@code [join cgroups] /usr/bin/setsid /usr/bin/crun --root STATE --cgroup-manager=disabled run --bundle B ID}:
 * the runtime reads the job's user, environment and mounts from its bundle ({@code OciBundle}).
 * Every program up to the privilege drop is named by absolute path and runs with the fixed
 * {@link SystemPrograms#ENVIRONMENT}; the job's own environment is exported by its launch script,
 * which runs as the job's user.
 */
public final class ProcessJobRunner implements JobRunner {

    private final SystemPrograms programs;

    public ProcessJobRunner(SystemPrograms programs) {
        this.programs = programs;
    }

    /** A runner with the programs of this machine, {@code setpriv} included only if it is installed. */
    public static ProcessJobRunner system() {
        try {
            return new ProcessJobRunner(SystemPrograms.find(JobUsers.processIsRoot()));
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public Handle start(JobLaunch launch) throws IOException {
        JobUsers.User user = launch.user();
        if (launch.container() == null) {
            writeScript(launch);
        }
        List<String> command = new ArrayList<>();
        if (!launch.cgroupProcs().isEmpty() && (launch.namespace() == null || launch.container() != null)) {
            StringBuilder join = new StringBuilder();
            for (int i = 0; i < launch.cgroupProcs().size(); i++) {
                join.append("echo $$ > \"$").append(i == 0 ? "0" : "{" + i + "}").append("\" || exit 125; ");
            }
            command.addAll(List.of(programs.bash().toString(), "--noprofile", "--norc", "-c",
                    join + "shift " + (launch.cgroupProcs().size() - 1) + "; exec \"$@\""));
            launch.cgroupProcs().forEach(p -> command.add(p.toString()));
        }
        if (launch.container() != null) {
            // the runtime makes the namespaces and mounts and drops to the job's user (its bundle says how)
            JobLaunch.Container container = launch.container();
            command.add(programs.setsid().toString());
            command.addAll(container.images().runtimeCommand(programs,
                    List.of("run", "--bundle", container.bundle().toString(), container.id())));
            return start(launch, command);
        }
        if (launch.namespace() != null) {
            if (programs.unshare() == null || programs.mount() == null) {
                throw new IOException("unshare and mount are needed to give a job its own /tmp");
            }
            launch.namespace().writeTable();
            command.addAll(launch.namespace().command(programs, launch.cgroupProcs()));
        }
        command.add(programs.setsid().toString());
        if (user != null) {
            if (programs.setpriv() == null) {
                throw new IOException("setpriv is needed to run jobs as other users");
            }
            command.addAll(List.of(programs.setpriv().toString(), "--reuid=" + user.uid(), "--regid=" + user.gid(),
                    "--clear-groups", "--no-new-privs", "--"));
        }
        command.addAll(List.of(programs.bash().toString(), "--noprofile", "--norc", launch.script().toString()));
        return start(launch, command);
    }

    private Handle start(JobLaunch launch, List<String> command) throws IOException {
        ProcessBuilder builder = programs.builder(command)
                .directory(launch.sandbox().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(launch.stdout().toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(launch.stderr().toFile()));
        return new ProcessHandleImpl(builder.start(), programs, launch.container() != null);
    }

    private void writeScript(JobLaunch launch) throws IOException {
        Path script = launch.script();
        Files.deleteIfExists(script);
        Files.createFile(script, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(script, LaunchScript.text(launch.job().jobId(), launch.env(), launch.job().command(),
                programs.bash().toString(), launch.maxFileBytes()), StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        if (launch.user() != null) {
            Files.setAttribute(script, "unix:gid", launch.user().gid());
            Files.setAttribute(script, "unix:uid", launch.user().uid());
        }
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("r--------"));
    }

    @Override
    public void removeContainer(JobLaunch.Container container) {
        container.images().deleteContainer(container.id());
    }

    /** Sends SIGKILL to a whole process group (with bash's built-in kill, no kill binary needed). */
    @Override
    public void killGroup(long group) {
        signalGroup(programs, group, "KILL");
    }

    /**
     * Kills every process of a job's own uid from that uid: {@code kill -9 -1} reaches exactly the
     * processes it may signal, its own (three rounds, for processes forked in between).
     */
    @Override
    public void killUser(JobUsers.User user) {
        if (programs.setpriv() == null) {
            return;
        }
        runCommand(programs, List.of(programs.setpriv().toString(), "--reuid=" + user.uid(), "--regid=" + user.gid(),
                "--clear-groups", "--", programs.bash().toString(), "--noprofile", "--norc", "-c",
                "for i in 1 2 3; do kill -9 -1 2>/dev/null; done"));
    }

    /** Signals a whole process group with bash's built-in kill (no kill binary needed). */
    static void signalGroup(SystemPrograms programs, long group, String signal) {
        runCommand(programs, List.of(programs.bash().toString(), "--noprofile", "--norc", "-c",
                "kill -s " + signal + " -- -" + group + " 2>/dev/null"));
    }

    private static void runCommand(SystemPrograms programs, List<String> command) {
        try {
            Process process = programs.builder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            process.waitFor();
        } catch (IOException e) {
            // the group is gone; the descendants are signalled below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class ProcessHandleImpl implements Handle {
        private final Process process;
        private final CompletableFuture<Integer> exit;
        private final SystemPrograms programs;
        /** The process is the OCI runtime: a SIGTERM goes to the container's processes, not to it. */
        private final boolean runtime;

        ProcessHandleImpl(Process process, SystemPrograms programs, boolean runtime) {
            this.process = process;
            this.programs = programs;
            this.runtime = runtime;
            this.exit = process.onExit().thenApply(Process::exitValue);
        }

        @Override
        public long pid() {
            return process.pid();
        }

        @Override
        public CompletableFuture<Integer> exit() {
            return exit;
        }

        @Override
        public void terminate() {
            signal("TERM");
        }

        @Override
        public void kill() {
            signal("KILL");
        }

        private void signal(String name) {
            List<ProcessHandle> descendants = process.descendants().toList();
            if (runtime && !name.equals("KILL")) {
                // the runtime does not pass a SIGTERM on and would die of it, taking the job with it
                // before its grace: the job's own processes get it, and the runtime ends when they do
                descendants.forEach(ProcessHandle::destroy);
                return;
            }
            signalGroup(programs, process.pid(), name);
            for (ProcessHandle child : descendants) {
                if (name.equals("KILL")) {
                    child.destroyForcibly();
                } else {
                    child.destroy();
                }
            }
        }
    }
}
