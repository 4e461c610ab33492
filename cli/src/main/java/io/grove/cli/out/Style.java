package io.grove.cli.out;

/**
 * Color on a terminal only: never when output is piped or redirected, when {@code NO_COLOR} is
 * set, or when {@code TERM} is {@code dumb}.
 */
public record Style(boolean color) {

    public static final Style PLAIN = new Style(false);

    /** The style for standard output of this process. */
    public static Style detect() {
        boolean terminal = System.console() != null;
        String term = System.getenv("TERM");
        return new Style(terminal && System.getenv("NO_COLOR") == null && term != null && !term.equals("dumb"));
    }

    public String bold(String text) {
        return wrap("1", text);
    }

    public String dim(String text) {
        return wrap("2", text);
    }

    /** An operation or job state in its color: green running/completed, yellow pending, red failed/aborted. */
    public String state(String state) {
        return switch (state) {
            case "running", "online" -> wrap("32", state);
            case "completed" -> wrap("36", state);
            case "pending", "starving", "aggressively_starving" -> wrap("33", state);
            case "failed", "aborted", "offline" -> wrap("31", state);
            default -> state;
        };
    }

    private String wrap(String code, String text) {
        return color && !text.isEmpty() ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
    }
}
