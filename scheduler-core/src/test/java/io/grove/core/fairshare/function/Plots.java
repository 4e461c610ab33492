package io.grove.core.fairshare.function;

/** Functions from their plots as given, point for point (the builder would merge some). */
public final class Plots {

    private Plots() {
    }

    /** The function whose points are {@code (xs[i], vs[i * dim ..])}, exactly. */
    public static PiecewiseLinearFunction of(int dim, double[] xs, double[] vs) {
        return new PiecewiseLinearFunction(dim, xs.clone(), vs.clone());
    }
}
