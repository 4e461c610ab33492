package io.grove.cli.client;

/** A failure the command reports as one line, with its exit code. */
public class CliException extends Exception {

    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
