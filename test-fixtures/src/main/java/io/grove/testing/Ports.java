package io.grove.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ports for servers that tests start. A port free when it is chosen may be taken by another process
 * before the server binds it; {@link #bind} therefore starts the server with ports it chose and, if
 * the server cannot bind one of them, chooses again. Within one test run a port is never handed
 * out twice (the kernel may offer a just-closed port again).
 */
public final class Ports {

    /** Starts something on the ports it is given. */
    @FunctionalInterface
    public interface Binder<T> {
        T start(int[] ports) throws Exception;
    }

    /** Attempts before a server that keeps finding its ports taken fails the test. */
    static final int ATTEMPTS = 5;

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    /**
     * A port no one listens on now, not handed out before in this run: for a test that needs an
     * address where nothing answers. A server is started with {@link #bind} instead: between this
     * call and its bind another process may take the port.
     */
    public static int free() {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("no free port", e);
            }
        }
    }

    /** Starts {@code binder} on {@code count} free ports, again on others while a port is taken meanwhile. */
    public static <T> T bind(int count, Binder<T> binder) throws Exception {
        for (int attempt = 1; ; attempt++) {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ports[i] = free();
            }
            try {
                return binder.start(ports);
            } catch (Exception e) {
                if (attempt >= ATTEMPTS || !taken(e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Inside a binder that starts another process: fails with a {@link BindException} when the
     * process's {@code output} says a port was taken, so that {@link #bind} chooses others.
     */
    public static void refuseIfTaken(String output) throws BindException {
        if (output != null && output.toLowerCase(Locale.ROOT).contains("address already in use")) {
            throw new BindException("a port was taken: " + output.strip());
        }
    }

    /** Whether a failure to start was a port taken by someone else. */
    static boolean taken(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException || String.valueOf(cause.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }
}
