package io.grove.server.http;

/**
 * What of a job's messages is its output: the tail of its stderr that its node appends to a
 * failure ({@code ...; stderr ends with:} and what follows), which may hold secrets the job
 * printed. Only the operation's owner, its pools' administrators and the cluster admins see it;
 * others see the message without it.
 */
final class JobOutput {

    /** Where a node's failure message turns into the job's own output. */
    static final String STDERR_MARK = "stderr ends with:";
    static final String WITHHELD = "stderr ends with: (withheld: a job's output is shown to its owner and its "
            + "pools' administrators)";

    private JobOutput() {
    }

    /** The message as {@code reader} may see it: whole, or without the job's output. */
    static String forReader(String message, boolean mayReadOutput) {
        if (message == null || mayReadOutput) {
            return message;
        }
        int at = message.indexOf(STDERR_MARK);
        return at < 0 ? message : message.substring(0, at) + WITHHELD;
    }
}
