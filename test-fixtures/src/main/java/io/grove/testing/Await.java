package io.grove.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The one way Grove's tests wait: for a condition, polled, within a deadline that fails the test.
 * No test sleeps for a time it guessed ({@code NoWallClockWaitsTest} holds them to it); this is the
 * only place that parks a test's thread.
 */
public final class Await {

    /** How long a condition may take before the test fails. */
    public static final Duration DEADLINE = Duration.ofSeconds(30);

    /** How often a condition is checked. */
    public static final Duration POLL = Duration.ofMillis(5);

    private Await() {
    }

    /** A condition that may throw (an HTTP call, a file read). */
    @FunctionalInterface
    public interface Check {
        boolean test() throws Exception;
    }

    /** Returns once {@code condition} holds; fails with {@code what} if it does not within {@link #DEADLINE}. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, POLL, condition);
    }

    /**
     * {@link #until}, checking every {@code every}: a test that asserts something at each check
     * (never two leaders) samples as often as it needs.
     */
    public static void until(String what, Duration every, BooleanSupplier condition) {
        poll(what, DEADLINE, every, condition::getAsBoolean, false);
    }

    /**
     * Waits up to {@code deadline} for real containers, processes and timeouts, checking every
     * {@code every}; an exception of the check means "not yet", and the last one is reported.
     */
    public static void within(String what, Duration deadline, Duration every, Check check) {
        poll(what, deadline, every, check, true);
    }

    private static void poll(String what, Duration deadline, Duration every, Check check, boolean retry) {
        long end = System.nanoTime() + deadline.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (check.test()) {
                    return;
                }
            } catch (Exception e) {
                if (!retry && e instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (!retry) {
                    throw new AssertionError(what + ": " + e, e);
                }
                last = e;
            }
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("not within " + deadline.toSeconds() + " s: " + what
                        + (last == null ? "" : " (last error: " + last + ")"));
            }
            LockSupport.parkNanos(every.toNanos());
        }
    }

    /** {@link #until} for a condition that may throw: what it throws fails the test. */
    public static void untilChecked(String what, Check condition) {
        until(what, unchecked(condition));
    }

    /** A condition whose exceptions fail the test. */
    public static BooleanSupplier unchecked(Check check) {
        return () -> {
            try {
                return check.test();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
    }

    /** A condition whose exceptions mean "not yet" (a server still starting refuses connections). */
    public static BooleanSupplier retrying(Check check) {
        return () -> {
            try {
                return check.test();
            } catch (Exception e) {
                return false;
            }
        };
    }
}
