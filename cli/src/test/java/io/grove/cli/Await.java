package io.grove.cli;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** The one way the CLI's tests wait: for a condition, polled, within a deadline that fails the test. */
final class Await {

    static final Duration DEADLINE = Duration.ofSeconds(30);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails with {@code what} if it does not within {@link #DEADLINE}. */
    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + DEADLINE.toSeconds() + " s: " + what);
            }
            LockSupport.parkNanos(20_000_000);
        }
    }

    /** A check that may throw, for {@link #until}. */
    interface Check {
        boolean test() throws Exception;
    }

    static BooleanSupplier unchecked(Check check) {
        return () -> {
            try {
                return check.test();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
    }
}
