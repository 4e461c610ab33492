package io.grove.core.forecast;

import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Submissions to come, as the last hour's say: they go on at the same rate (a Poisson process,
 * its rate measured from the first submission of the hour), each like one of those seen (its spec,
 * user and pool). A forecast's late edge runs with them, for
 * a new operation may go ahead of a waiting one (in a fair-share pool, or in another pool).
 */
public final class Arrivals {

    /** How far back submissions are counted. */
    public static final Duration WINDOW = Duration.ofHours(1);

    /** A submission seen in the window. */
    public record Seen(Instant at, OperationSpec spec, String user, String pool) {
    }

    /** The least span the rate is measured over: a burst of seconds is not taken for a lasting rate. */
    static final Duration LEAST_SPAN = Duration.ofMinutes(1);

    private final List<Seen> seen;
    /** The mean time between submissions, in milliseconds. */
    private final double meanMillis;

    /**
     * @param now when they were counted: the rate is measured from the first seen (those after it
     *     over the time since it, at least {@link #LEAST_SPAN}), so a cluster that started taking
     *     submissions minutes ago is not taken to have had an hour of them
     */
    Arrivals(List<Seen> seen, Instant now) {
        this.seen = List.copyOf(seen);
        Instant first = seen.stream().map(Seen::at).min(Instant::compareTo).orElse(null);
        if (first == null || seen.size() < 2) {
            this.meanMillis = seen.isEmpty() ? Double.POSITIVE_INFINITY : (double) WINDOW.toMillis() / seen.size();
        } else {
            long span = Math.max(LEAST_SPAN.toMillis(), Duration.between(first, now).toMillis());
            this.meanMillis = (double) span / (seen.size() - 1);
        }
    }

    /** The submissions of the last {@link #WINDOW} before {@code now}. */
    static Arrivals of(Iterable<Operation> operations, Instant now) {
        List<Seen> seen = new ArrayList<>();
        Instant since = now.minus(WINDOW);
        for (Operation operation : operations) {
            if (operation.submitTime().isAfter(since) && !operation.submitTime().isAfter(now)) {
                seen.add(new Seen(operation.submitTime(), operation.spec(), operation.user(),
                        operation.poolByTree().values().stream().findFirst().orElse("")));
            }
        }
        return new Arrivals(seen, now);
    }

    /** How many were seen. */
    public int count() {
        return seen.size();
    }

    /** One draw of submissions to come after {@code from}, in order; empty when none were seen. */
    Stream start(Instant from, SplittableRandom random) {
        return new Stream(from, random);
    }

    /** The submissions of one draw, taken in order as virtual time passes. */
    final class Stream {
        private final SplittableRandom random;
        private Instant next;

        private Stream(Instant from, SplittableRandom random) {
            this.random = random;
            this.next = seen.isEmpty() ? null : after(from);
        }

        /** When the next submission comes, or {@code null}: never. */
        Instant next() {
            return next;
        }

        /** The submission due at {@link #next()}, like one seen; the one after it is drawn. */
        Seen take() {
            Seen like = seen.get(random.nextInt(seen.size()));
            Seen taken = new Seen(next, like.spec(), like.user(), like.pool());
            next = after(next);
            return taken;
        }

        private Instant after(Instant t) {
            long gap = (long) (-Math.log(1 - random.nextDouble()) * meanMillis);
            return t.plusMillis(Math.max(1, gap));
        }
    }
}
