package io.grove.agent.job;

import java.util.Map;

/**
 * The script that starts a job once its privileges are dropped, as YARN's
 * {@code launch_container.sh}: it sets the job's file size limit, exports its environment and execs
 * {@code bash -c COMMAND}.
 * It is the job user's alone (0400), so the job's variables never appear on a command line that
 * other users could read in {@code /proc}, and never reach a process with the agent's privileges.
 */
public final class LaunchScript {

    private LaunchScript() {
    }

    /** The script's text; names must be valid variable names (see {@link JobEnvironment}). */
    public static String text(String jobId, Map<String, String> env, String command, String bash, long maxFileBytes) {
        StringBuilder script = new StringBuilder();
        script.append("# the launch of Grove job ").append(jobId).append("\n");
        script.append("set -e\n");
        if (maxFileBytes > 0) {
            // soft and hard: no file it writes, its stdout and stderr included, grows past its disk limit
            script.append("ulimit -f ").append(fileBlocks(maxFileBytes)).append('\n');
        }
        for (Map.Entry<String, String> entry : env.entrySet()) {
            script.append("export ").append(entry.getKey()).append('=').append(quote(entry.getValue())).append('\n');
        }
        script.append("set +e\n");
        script.append("exec ").append(quote(bash)).append(" -c ").append(quote(command)).append('\n');
        return script.toString();
    }

    /** {@code ulimit -f}'s units (1,024 bytes), rounded up. */
    static long fileBlocks(long bytes) {
        return (bytes + 1023) / 1024;
    }

    /** Single-quotes text for bash: every byte stays literal. */
    static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
