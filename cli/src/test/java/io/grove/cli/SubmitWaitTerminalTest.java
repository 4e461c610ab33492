package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code grove submit --wait} in a pseudo-terminal ({@code script} from util-linux allocates one):
 * the progress bar is redrawn in place, and the exit code says how the operation ended.
 */
class SubmitWaitTerminalTest {

    @Test
    void theProgressBarIsRedrawnOnATerminal(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), CliClusterTest.POOLS);
        try (LocalCommand.LocalCluster cluster = LocalCommand.LocalCluster.start(dir.resolve("pools.yaml"),
                dir.resolve("data"), 1, 0, 0)) {
            String java = ProcessHandle.current().info().command().orElse("java");
            String grove = String.join(" ", List.of(java, "-cp", System.getProperty("java.class.path"),
                    Grove.class.getName(), "submit", "--scheduler", "http://127.0.0.1:" + cluster.httpPort(), "--user", "tty",
                    "--pool", "prod", "--jobs", "4", "--cpu", "0.25", "--wait", "--", "'sleep 1'"));
            Path transcript = dir.resolve("transcript");
            Process script = new ProcessBuilder("script", "-q", "-e", "-c", grove, transcript.toString())
                    .redirectInput(ProcessBuilder.Redirect.PIPE).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout").toFile()).start();
            assertTrue(script.waitFor(120, TimeUnit.SECONDS), "grove submit --wait did not end");
            assertEquals(0, script.exitValue(), Files.readString(dir.resolve("stdout")));
            String screen = Files.readString(transcript, StandardCharsets.UTF_8);
            assertTrue(screen.contains("\r[") && screen.contains("\u001b[K"), "redrawn in place: " + screen);
            assertTrue(screen.contains("[##############################] 4/4 done, 0 running, 0 pending"), screen);
            assertTrue(screen.matches("(?s).*op-\\d+ completed.*"), screen);
        }
    }
}
