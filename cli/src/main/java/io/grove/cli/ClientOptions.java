package io.grove.cli;

import picocli.CommandLine.Option;

/** The options of every command that talks to the scheduler. */
final class ClientOptions {

    /** How data is printed. */
    enum Output { table, wide, json, yaml, csv }

    @Option(names = "--scheduler", paramLabel = "URL",
            description = "the scheduler's API (default: $GROVE_SCHEDULER, else 'scheduler:' in ~/.config/grove/config.yaml, "
                    + "else http://127.0.0.1:8080)")
    String scheduler;

    @Option(names = "--user", paramLabel = "NAME", description = "who you are (default: 'user:' in the config file, else your login name)")
    String user;

    @Option(names = {"-o", "--output"}, defaultValue = "table", paramLabel = "FORMAT",
            description = "table (cut to the terminal's width; never when piped), wide (never cut), json, yaml, or csv "
                    + "where a command says so (default: ${DEFAULT-VALUE})")
    Output output;
}
