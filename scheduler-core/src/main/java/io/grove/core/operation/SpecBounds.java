package io.grove.core.operation;

import java.util.regex.Pattern;

/**
 * How large what a user submits may be: every field that crosses from a user to the scheduler,
 * its journal, its logs and the nodes is bounded, so no spec can overflow a count, make a fair
 * share NaN, or make a log line megabytes long.
 */
public final class SpecBounds {

    /** Jobs of one operation over all its tasks. */
    public static final long MAX_JOBS = 10_000_000;
    public static final int MAX_TASKS = 256;
    /**
     * Ranks of one gang: its placement is planned at once, at a cost of ranks × nodes (the largest
     * gangs of today's clusters: 64 nodes of 8 GPUs, 512 ranks).
     */
    public static final int MAX_GANG_RANKS = 4096;
    public static final int MAX_NAME = 256;
    public static final int MAX_TITLE = 1024;
    public static final int MAX_COMMAND = 64 * 1024;
    /** The largest disk order of a job: 1 PiB. */
    public static final double MAX_DISK_SPACE = 1L << 50;
    public static final int MAX_ENV_ENTRIES = 256;
    public static final int MAX_ENV_VALUE = 32 * 1024;
    /** Weights of operations are bounded as pools' are (the square root of the double epsilon and its inverse). */
    public static final double MIN_WEIGHT = Math.sqrt(Math.ulp(1.0));
    public static final double MAX_WEIGHT = 1.0 / MIN_WEIGHT;
    /** A valid environment variable name (POSIX portable characters, not first a digit). */
    public static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    private SpecBounds() {
    }

    /** Whether {@code weight} is a usable operation weight. */
    public static boolean weightInRange(double weight) {
        return weight >= MIN_WEIGHT && weight <= MAX_WEIGHT;
    }

    /** The message for a weight out of range. */
    public static String weightProblem(double weight) {
        return "weight must be within [" + MIN_WEIGHT + ", " + MAX_WEIGHT + "], got " + weight;
    }
}
