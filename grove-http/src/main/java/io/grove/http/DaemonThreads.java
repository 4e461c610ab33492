package io.grove.http;

import java.util.concurrent.ThreadFactory;

/**
 * The one way Grove's processes make their background threads: named (so a thread dump, {@code top
 * -H} and the per-thread CPU figures of {@code bench/} say whose they are) and daemon (so none
 * holds a process open after its {@code main} and shutdown hooks are done). It lives in this module
 * because the scheduler, the agent and the CLI all see it.
 */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** A factory whose threads all take {@code name}. */
    public static ThreadFactory named(String name) {
        return task -> thread(name, task);
    }

    /** A daemon thread called {@code name} that runs {@code task}, not yet started. */
    public static Thread thread(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    /** The same, started. */
    public static Thread start(String name, Runnable task) {
        Thread thread = thread(name, task);
        thread.start();
        return thread;
    }

    /**
     * A thread for {@link Runtime#addShutdownHook}: not a daemon thread (the JVM waits for its hooks
     * whatever they are), named so that a hung shutdown shows whose hook it is.
     */
    public static Thread shutdownHook(String name, Runnable task) {
        return new Thread(task, name);
    }
}
