package io.grove.agent.job;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Runs job processes. The real one starts {@code bash -c} as its own session; tests may use a
 * twin.
 */
public interface JobRunner {

    /**
     * Starts a job's process in {@code sandbox}, with stdout and stderr going to files.
     *
     * @throws IOException if it cannot be started
     */
    Handle start(JobSpec job, Path sandbox, Path stdout, Path stderr, Map<String, String> env) throws IOException;

    /** Starts a job as {@code user} (an unprivileged user), or as the agent's user when {@code null}. */
    default Handle start(JobSpec job, Path sandbox, Path stdout, Path stderr, Map<String, String> env, JobUsers.User user)
            throws IOException {
        if (user != null) {
            throw new IOException("this job runner cannot switch users");
        }
        return start(job, sandbox, stdout, stderr, env);
    }

    /** A started job process. */
    interface Handle {
        /** The pid, which is also the process group of the whole tree. */
        long pid();

        /** Completes with the exit code when the process ends. */
        CompletableFuture<Integer> exit();

        /** Sends SIGTERM to the whole process tree. */
        void terminate();

        /** Sends SIGKILL to the whole process tree. */
        void kill();
    }
}
