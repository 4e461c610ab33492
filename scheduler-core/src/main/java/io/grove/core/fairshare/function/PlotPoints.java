package io.grove.core.fairshare.function;

/**
 * The points of a plot, left to right, as a function holds them or as a builder holds them
 * before it builds one: for a reader that copies them.
 */
public interface PlotPoints {

    /** Number of points. */
    int size();

    /** The argument of point {@code i}. */
    double x(int i);

    /** Copies the values of points {@code [from, from + count)} into {@code out[offset ..]}. */
    void copyPoints(int from, int count, double[] out, int offset);
}
