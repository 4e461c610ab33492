package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.SuggestionFunctions;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The working arrays of fair-share updates, kept from one update to the next: the builder every
 * function is built in, the children's points of every fair-share pool, the sweeps' arrays. An
 * update of 10,000 pools and 100,000 operations works in about 45 MB of them; given a workspace,
 * the updates after the first make none of it anew. Keep one per pool tree (its updates need
 * about the same room each time); a workspace changes nothing in the results, which keep no
 * reference to it.
 *
 * <p>One update at a time: an update that finds its workspace in use by another fails with
 * {@link IllegalStateException}.
 */
public final class FairShareWorkspace {

    private final AtomicBoolean busy = new AtomicBoolean();
    /** All three {@code null} before the first update. */
    private FunctionBuilder builder;
    private SuggestionFunctions.Walker walker;
    private ChildPoints points;
    final FitFactorSweep.Scratch sweepScratch = new FitFactorSweep.Scratch();

    void acquire() {
        if (!busy.compareAndSet(false, true)) {
            throw new IllegalStateException("this fair-share workspace is in use by another update: one update at a time");
        }
    }

    void release() {
        busy.set(false);
    }

    /**
     * Gets the builder, walker and points ready for functions of {@code dim} components, about
     * {@code expectedPoints} points for the largest; kept arrays where the last update's fit.
     */
    void prepare(int dim, int expectedPoints) {
        if (points == null || points.dim != dim || builder.capacity() < expectedPoints) {
            builder = new FunctionBuilder(dim, expectedPoints);
            walker = new SuggestionFunctions.Walker(dim, builder);
            points = new ChildPoints(dim, 16, expectedPoints);
        } else {
            builder.reset();
            points.restart();
        }
    }

    FunctionBuilder builder() {
        return builder;
    }

    SuggestionFunctions.Walker walker() {
        return walker;
    }

    ChildPoints points() {
        return points;
    }
}
