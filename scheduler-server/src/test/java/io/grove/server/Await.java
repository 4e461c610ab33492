package io.grove.server;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** The one way the daemon's tests wait: for a condition, polled, within a deadline that fails the test. */
public final class Await {

    public static final Duration DEADLINE = Duration.ofSeconds(20);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails with {@code what} if it does not within {@link #DEADLINE}. */
    public static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + DEADLINE.toSeconds() + " s: " + what);
            }
            LockSupport.parkNanos(5_000_000);
        }
    }

    /** A condition that may throw (an HTTP call): what it throws fails the test. */
    public interface Check {
        boolean test() throws Exception;
    }

    /** {@link #until} for a condition that may throw. */
    public static void untilChecked(String what, Check condition) {
        until(what, (BooleanSupplier) () -> {
            try {
                return condition.test();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(what + ": " + e, e);
            }
        });
    }
}
