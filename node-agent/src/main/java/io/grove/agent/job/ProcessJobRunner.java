package io.grove.agent.job;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Starts each job as {@code setsid bash -c COMMAND}: the job leads its own session and process
 * group, so signals sent to the group reach every process it started, even those re-parented
 * after their parent exited.
 */
public final class ProcessJobRunner implements JobRunner {

    @Override
    public Handle start(JobSpec job, Path sandbox, Path stdout, Path stderr, Map<String, String> env) throws IOException {
        return start(job, sandbox, stdout, stderr, env, null);
    }

    /**
     * As root, {@code setpriv} (util-linux) drops to the job's user and group, with no
     * supplementary groups, before bash starts.
     */
    @Override
    public Handle start(JobSpec job, Path sandbox, Path stdout, Path stderr, Map<String, String> env, JobUsers.User user)
            throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("setsid"));
        if (user != null) {
            command.addAll(List.of("setpriv", "--reuid=" + user.uid(), "--regid=" + user.gid(), "--clear-groups", "--"));
        }
        command.addAll(List.of("bash", "-c", job.command()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(sandbox.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(stdout.toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
        builder.environment().putAll(env);
        if (user != null) {
            builder.environment().put("USER", user.name());
            builder.environment().put("LOGNAME", user.name());
            builder.environment().put("HOME", sandbox.toString());
        }
        Process process = builder.start();
        return new ProcessHandleImpl(process);
    }

    /** Sends a signal to a whole process group. */
    public static void signalGroup(long group, String signal) {
        try {
            // bash's built-in kill: no dependency on a kill binary being installed
            Process kill = new ProcessBuilder("bash", "-c", "kill -s " + signal + " -- -" + group + " 2>/dev/null")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor();
        } catch (IOException e) {
            // the group is gone or kill is missing; the descendants are signalled below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class ProcessHandleImpl implements Handle {
        private final Process process;
        private final CompletableFuture<Integer> exit;

        ProcessHandleImpl(Process process) {
            this.process = process;
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
            signalGroup(process.pid(), name);
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
