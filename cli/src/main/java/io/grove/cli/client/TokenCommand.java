package io.grove.cli.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The {@code token_command:} of the user's config file: a command that prints a bearer token (the
 * identity provider's CLI printing a fresh JWT), run with {@code /bin/sh -c} as the user, bounded
 * in time and output. Its first line is the token.
 */
final class TokenCommand {

    /** How long it may take. */
    static final long TIMEOUT_SECONDS = 60;

    /** The most it may print. */
    static final int MAX_OUTPUT = 64 * 1024;

    private TokenCommand() {
    }

    static String run(String command, Path from) throws CliException {
        String where = "token_command in " + from;
        if (command.isBlank()) {
            throw new CliException(ExitCodes.USAGE, where + " is empty");
        }
        Process process;
        try {
            process = new ProcessBuilder("/bin/sh", "-c", command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new CliException(ExitCodes.USAGE, where + " cannot be run: " + e.getMessage());
        }
        try {
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readNBytes(MAX_OUTPUT + 1);
            if (out.length > MAX_OUTPUT) {
                process.destroyForcibly();
                throw new CliException(ExitCodes.FAILED, where + " printed more than " + MAX_OUTPUT + " bytes");
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new CliException(ExitCodes.FAILED, where + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new CliException(ExitCodes.FAILED, where + " failed (exit " + process.exitValue() + ")");
            }
            String token = new String(out, StandardCharsets.UTF_8).lines().findFirst().orElse("").strip();
            if (token.isEmpty()) {
                throw new CliException(ExitCodes.FAILED, where + " printed no token");
            }
            return token;
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, where + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new CliException(ExitCodes.FAILED, where + " was interrupted");
        }
    }
}
