package io.grove.cli;

import io.grove.config.LoadResult;
import java.io.PrintWriter;

/** How commands report a document that did not load: every problem, one per line, and exit code 1. */
final class Problems {

    /** Exit code of a command whose input has problems. */
    static final int EXIT_INVALID = 1;

    private Problems() {
    }

    static int report(PrintWriter err, String what, LoadResult<?> loaded) {
        err.println(loaded.problems().size() + " problem(s) in " + what + ":");
        err.println(loaded.describe());
        err.flush();
        return EXIT_INVALID;
    }
}
