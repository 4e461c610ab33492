package io.grove.core.operation;

/**
 * A job's id in its usual form, {@code <operation id>-<sequence>}, worked with without building the
 * string: its hash and a comparison with a given id, as {@code String} would compute them. A busy
 * scheduler keeps hundreds of thousands of jobs; the string and its bytes were two of the three
 * objects each job start left for the young collector.
 */
public final class JobId {

    private JobId() {
    }

    /** Sequences from 0 up to this (18 digits) are worked with as numbers; larger ones keep their string. */
    static final long LIMIT = 1_000_000_000_000_000_000L;

    /** Whether {@code sequence} is one {@link #hash} and {@link #matches} work with. */
    static boolean usual(long sequence) {
        return sequence >= 0 && sequence < LIMIT;
    }

    /** The sequence of {@code id} if it is exactly {@code operationId + "-" + sequence} (a usual one), else -1. */
    public static long sequenceOf(String id, String operationId) {
        int dash = operationId.length();
        if (id.length() <= dash + 1 || id.length() > dash + 1 + 18 || !id.startsWith(operationId) || id.charAt(dash) != '-') {
            return -1;
        }
        long value = 0;
        for (int i = dash + 1; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < '0' || c > '9' || (i == dash + 1 && c == '0' && id.length() > dash + 2)) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    static String format(String operationId, long sequence) {
        return operationId + "-" + sequence;
    }

    /** {@code format(operationId, sequence).hashCode()}. */
    static int hash(String operationId, long sequence) {
        int h = 31 * operationId.hashCode() + '-';
        for (long power = largestPowerOfTen(sequence); power > 0; power /= 10) {
            h = 31 * h + (char) ('0' + (sequence / power) % 10);
        }
        return h;
    }

    /** {@code format(operationId, sequence).equals(id)}. */
    static boolean matches(String id, String operationId, long sequence) {
        return sequenceOf(id, operationId) == sequence;
    }

    private static long largestPowerOfTen(long value) {
        long power = 1;
        while (value / power >= 10) {
            power *= 10;
        }
        return power;
    }
}
