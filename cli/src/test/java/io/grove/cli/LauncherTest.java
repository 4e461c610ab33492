package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The distribution's launcher, {@code bin/grove}, run with a stand-in for java that prints its arguments. */
class LauncherTest {

    /** Every daemon out of memory exits, for its supervisor to restart a clean process; direct memory is bounded. */
    static final String OOM = "-XX:+ExitOnOutOfMemoryError -XX:MaxDirectMemorySize=512m";


    static final String GC = "-XX:MaxGCPauseMillis=5 -XX:MaxTenuringThreshold=0 -XX:+UnlockExperimentalVMOptions "
            + "-XX:G1NewSizePercent=1";

    @TempDir
    Path dir;

    @Test
    void theSchedulerGetsShortPausesUnlessToldOtherwise() throws Exception {
        assertEquals(OOM + " " + GC + " -Xmx4g -jar LIB scheduler --config x", run(Map.of("GROVE_JAVA_OPTS", "-Xmx4g"),
                "scheduler", "--config", "x"));
        assertEquals(OOM + " -Xmx4g -jar LIB scheduler", run(Map.of("GROVE_JAVA_OPTS", "-Xmx4g", "GROVE_SCHEDULER_GC_OPTS", ""),
                "scheduler"));
        assertEquals(OOM + " -XX:+UseZGC -jar LIB scheduler", run(Map.of("GROVE_SCHEDULER_GC_OPTS", "-XX:+UseZGC"),
                "scheduler"));
    }

    @Test
    void otherCommandsRunAsTheyAre() throws Exception {
        assertEquals(OOM + " -jar LIB agent --scheduler s:7077", run(Map.of(), "agent", "--scheduler", "s:7077"));
        assertEquals(OOM + " -Xmx1g -jar LIB status", run(Map.of("GROVE_JAVA_OPTS", "-Xmx1g"), "status"));
    }

    /** The arguments java got, with the jar's path as LIB. */
    private String run(Map<String, String> env, String... args) throws Exception {
        Path out = dir.resolve("args");
        Path java = dir.resolve("java");
        Files.writeString(java, "#!/usr/bin/env bash\necho \"$*\" > '" + out + "'\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        Path launcher = Path.of("..", "dist", "src", "bin", "grove").toAbsolutePath().normalize();
        List<String> command = new java.util.ArrayList<>(List.of("bash", launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("GROVE_JAVA_OPTS");
        builder.environment().remove("GROVE_SCHEDULER_GC_OPTS");
        builder.environment().remove("JAVA_HOME");
        builder.environment().put("JAVA", java.toString());
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        String lib = launcher.getParent().getParent().resolve("lib").resolve("grove.jar").toString();
        return Files.readString(out).strip().replace(lib, "LIB");
    }
}
