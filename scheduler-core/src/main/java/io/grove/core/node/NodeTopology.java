package io.grove.core.node;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where a node sits in the cluster's network, in the cluster's own words: its domain at each level,
 * widest first ({@code block=b1, rack=r07}). A pool tree declares the levels it knows
 * ({@code topology_levels}); a node without one of them is in no domain of that level.
 *
 * @param domains level to domain, in the order the node gave them; unmodifiable
 */
public record NodeTopology(Map<String, String> domains) {

    /** No topology: in no domain of any level. */
    public static final NodeTopology NONE = new NodeTopology(Map.of());

    /** The most levels a node may give. */
    public static final int MAX_LEVELS = 8;
    /** A level's name: a word of lower-case letters, digits, {@code _} and {@code -}. */
    public static final Pattern LEVEL = Pattern.compile("[a-z][a-z0-9_-]{0,31}");
    /** A domain's name. */
    public static final Pattern DOMAIN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");

    public NodeTopology {
        if (domains == null || domains.isEmpty()) {
            domains = Map.of();
        } else {
            if (domains.size() > MAX_LEVELS) {
                throw new IllegalArgumentException("a node's topology has at most " + MAX_LEVELS + " levels, got "
                        + domains.size());
            }
            for (Map.Entry<String, String> level : domains.entrySet()) {
                check(level.getKey(), level.getValue());
            }
            domains = Collections.unmodifiableMap(new LinkedHashMap<>(domains));
        }
    }

    private static void check(String level, String domain) {
        if (level == null || !LEVEL.matcher(level).matches()) {
            throw new IllegalArgumentException("topology level '" + printable(level) + "' is not a name (expected "
                    + LEVEL.pattern() + ")");
        }
        if (domain == null || !DOMAIN.matcher(domain).matches()) {
            throw new IllegalArgumentException("topology domain '" + printable(domain) + "' of level " + level
                    + " is not a name (expected " + DOMAIN.pattern() + ")");
        }
    }

    /**
     * Reads {@code level=domain} pairs separated by commas (or new lines, as in a file), widest level
     * first: {@code block=b1,rack=r07}. Blank parts and {@code #} comments are skipped.
     *
     * @throws IllegalArgumentException naming the part that is wrong
     */
    public static NodeTopology parse(String text) {
        Map<String, String> domains = new LinkedHashMap<>();
        if (text == null) {
            return NONE;
        }
        for (String line : text.split("\n")) {
            int comment = line.indexOf('#');
            String content = comment < 0 ? line : line.substring(0, comment);
            for (String part : content.split(",")) {
                String pair = part.strip();
                if (pair.isEmpty()) {
                    continue;
                }
                int equals = pair.indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException("topology part '" + printable(pair)
                            + "' is not level=domain (as in block=b1,rack=r07)");
                }
                String level = pair.substring(0, equals).strip();
                String domain = pair.substring(equals + 1).strip();
                check(level, domain);
                if (domains.put(level, domain) != null) {
                    throw new IllegalArgumentException("topology level " + level + " is given twice");
                }
            }
        }
        return domains.isEmpty() ? NONE : new NodeTopology(domains);
    }

    /** The node's domain at {@code level}, or {@code null} when it gives none. */
    public String domain(String level) {
        return domains.get(level);
    }

    /**
     * The node's path in a tree's {@code levels}, widest first: {@code block=b1/rack=r07}; a level
     * the node lacks is left out ({@code ""} when it has none of them).
     */
    public String path(List<String> levels) {
        StringBuilder path = new StringBuilder();
        for (String level : levels) {
            String domain = domains.get(level);
            if (domain != null) {
                path.append(path.length() == 0 ? "" : "/").append(level).append('=').append(domain);
            }
        }
        return path.toString();
    }

    /** The levels of {@code levels} the node gives no domain for. */
    public List<String> missing(List<String> levels) {
        List<String> missing = new ArrayList<>();
        for (String level : levels) {
            if (!domains.containsKey(level)) {
                missing.add(level);
            }
        }
        return missing;
    }

    /** As given: {@code block=b1,rack=r07}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        domains.forEach((level, domain) -> text.append(text.length() == 0 ? "" : ",").append(level).append('=')
                .append(domain));
        return text.toString();
    }

    private static String printable(String text) {
        if (text == null) {
            return "null";
        }
        String cut = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
