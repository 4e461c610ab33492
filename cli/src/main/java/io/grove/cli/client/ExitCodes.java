package io.grove.cli.client;

/** The exit codes of {@code grove}, as docs/cli.md lists them. */
public final class ExitCodes {

    /** Done. */
    public static final int OK = 0;
    /** The operation waited for failed or was aborted; or something unexpected went wrong. */
    public static final int FAILED = 1;
    /** The command line is wrong (unknown flag, missing argument, bad value, unreadable file). */
    public static final int USAGE = 2;
    /** The scheduler (or the agent) cannot be reached. */
    public static final int UNREACHABLE = 3;
    /** No such operation, job, pool, tree or node. */
    public static final int NOT_FOUND = 4;
    /** The scheduler refused: invalid spec, count limit, unknown pool, invalid state. */
    public static final int REFUSED = 5;

    private ExitCodes() {
    }
}
