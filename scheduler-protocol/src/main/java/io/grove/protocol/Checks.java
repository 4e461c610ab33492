package io.grove.protocol;

import io.grove.core.resource.Resources;
import java.util.List;

/** Field checks of the message records; each failure names the field. */
public final class Checks {

    private Checks() {
    }

    /** The longest identifier (node, job, operation id) a message may carry. */
    public static final int MAX_ID = 256;
    /** The most tags a node may have, and the longest tag. */
    public static final int MAX_TAGS = 64;
    public static final int MAX_TAG = 128;
    /** The longest free text (a job's error with its stderr tail) kept from a message. */
    public static final int MAX_TEXT = 16 * 1024;

    /** A required identifier: at most {@value #MAX_ID} characters, no control characters. */
    public static String required(String value, String field) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("'" + field + "' is required");
        }
        return bounded(value, field, MAX_ID);
    }

    /** Text of at most {@code max} characters without control characters ({@code null} passes). */
    public static String bounded(String value, String field, int max) {
        if (value == null) {
            return null;
        }
        if (value.length() > max) {
            throw new IllegalArgumentException("'" + field + "' is " + value.length() + " characters long, above the "
                    + max + " allowed");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException("'" + field + "' holds a control character at " + i);
            }
        }
        return value;
    }

    /** Free text cut to {@code max} characters (what is cut is said). */
    /**
     * Untrusted text made safe to log or to echo in an error: at most {@code max} characters, and
     * every control character (newlines, escape sequences) written as {@code \\uXXXX}, so no input
     * can forge a log line or send a terminal an escape.
     */
    public static String printable(String value, int max) {
        if (value == null) {
            return null;
        }
        String cut = cut(value, max);
        StringBuilder out = new StringBuilder(cut.length());
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    public static String cut(String value, int max) {
        return value == null || value.length() <= max ? value
                : value.substring(0, max) + "… (" + (value.length() - max) + " more characters cut)";
    }

    /** Tags: at most {@value #MAX_TAGS}, each a bounded identifier. */
    public static List<String> tags(List<String> value) {
        List<String> tags = list(value);
        if (tags.size() > MAX_TAGS) {
            throw new IllegalArgumentException("'tags' has " + tags.size() + " entries, above the " + MAX_TAGS + " allowed");
        }
        for (int i = 0; i < tags.size(); i++) {
            bounded(tags.get(i), "tags[" + i + "]", MAX_TAG);
        }
        return tags;
    }

    public static Resources required(Resources value, String field) {
        if (value == null) {
            throw new IllegalArgumentException("'" + field + "' is required");
        }
        return value;
    }

    public static <T> List<T> list(List<T> value) {
        return value == null ? List.of() : List.copyOf(value);
    }

    public static long nonNegative(long value, String field) {
        if (value < 0) {
            throw new IllegalArgumentException("'" + field + "' must not be negative, got " + value);
        }
        return value;
    }
}
