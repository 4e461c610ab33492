package io.grove.agent.job;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * Runs job processes. The real one starts {@code bash} as its own session after dropping
 * privileges; tests may use a twin.
 */
public interface JobRunner {

    /**
     * Starts a job's process in its sandbox, with stdout and stderr going to files.
     *
     * @throws IOException if it cannot be started
     */
    Handle start(JobLaunch launch) throws IOException;

    /** Sends SIGKILL to a whole process group (a job of a previous run of the agent). */
    void killGroup(long group);

    /** Sends SIGKILL to every process of a job's own uid (it ended; nothing of it may stay). */
    void killUser(JobUsers.User user);

    /** Removes what the runtime keeps of an image job's container once its processes are gone. */
    default void removeContainer(JobLaunch.Container container) {
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
