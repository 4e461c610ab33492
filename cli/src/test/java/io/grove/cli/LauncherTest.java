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

    /** What a short command (not a daemon, not a long computation) starts with. */
    static final String SHORT = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData";

    static final String QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off";

    @Test
    void theDaemonsAndLongComputationsRunAsTheyAreAndShortCommandsStartFast() throws Exception {
        assertEquals(OOM + " -jar LIB agent --scheduler s:7077", run(Map.of(), "agent", "--scheduler", "s:7077"));
        assertEquals(OOM + " -jar LIB simulate w.yaml", run(Map.of(), "simulate", "w.yaml"));
        // no jar there: no archive to key by, so none is made
        assertEquals(OOM + " " + SHORT + " -Xmx1g -jar LIB status", run(Map.of("GROVE_JAVA_OPTS", "-Xmx1g"), "status"));
    }

    @Test
    void aShortCommandMakesItsClassDataArchiveOnceInAPrivateCacheAndThenStartsFromIt() throws Exception {
        Path home = installed();
        Path cache = dir.resolve("cache");
        Map<String, String> env = Map.of("XDG_CACHE_HOME", cache.toString(), "GROVE_TOKEN", "secret-token");
        String first = runIn(home, env, "ops", "list");
        // the training runs without the user's token and configuration (a token_command is not run for it)
        assertEquals("GROVE_TOKEN=unset XDG_CONFIG_HOME=" + cache.resolve("grove").resolve("no-config"),
                Files.readString(dir.resolve("training-env")).strip());
        // the first time: a training run makes the archive as it exits, then the command runs from it
        List<String> calls = Files.readAllLines(dir.resolve("calls"));
        String made = OOM + " " + SHORT + " -XX:ArchiveClassesAtExit=" + cache.resolve("grove") + "/cli-";
        assertEquals(2, calls.size(), calls.toString());
        assertTrue(calls.get(0).matches(java.util.regex.Pattern.quote(made) + "\\d+\\.jsa\\.\\d+ "
                + java.util.regex.Pattern.quote(QUIET + " -jar ") + ".* cds-training"), calls.get(0));
        assertTrue(first.startsWith(OOM + " " + SHORT + " -XX:SharedArchiveFile=" + cache.resolve("grove") + "/cli-")
                && first.endsWith(".jsa " + QUIET + " -jar LIB ops list"), first);
        List<Path> archives;
        try (var listed = Files.list(cache.resolve("grove"))) {
            archives = listed.toList();
        }
        assertEquals(1, archives.size(), "moved into place whole: " + archives);
        Path archive = archives.get(0);
        assertTrue(archive.getFileName().toString().matches("cli-\\d+\\.jsa"), archive.toString());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache.resolve("grove"))));
        assertEquals("r--------", PosixFilePermissions.toString(Files.getPosixFilePermissions(archive)),
                "as the JVM writes it");

        assertEquals(OOM + " " + SHORT + " -XX:SharedArchiveFile=" + archive + " " + QUIET + " -jar LIB ops list",
                runIn(home, env, "ops", "list"));
        assertEquals(OOM + " -jar LIB agent", runIn(home, env, "agent"), "a daemon never uses it");
        assertEquals(OOM + " " + SHORT + " -jar LIB ops list", runIn(home, Map.of("XDG_CACHE_HOME", cache.toString(),
                "GROVE_NO_CDS", "1"), "ops", "list"));

        // an archive another may write is not loaded (nor made again over it)
        Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("rw--w----"));
        assertEquals(OOM + " " + SHORT + " -jar LIB ops list", runIn(home, env, "ops", "list"));
        // nor one in a directory another may write
        Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("r--------"));
        Files.setPosixFilePermissions(cache.resolve("grove"), PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals(OOM + " " + SHORT + " -jar LIB ops list", runIn(home, env, "ops", "list"));
    }

    /** An unpacked distribution: the launchers, and a jar (any bytes: the stand-in java runs nothing). */
    private Path installed() throws Exception {
        Path home = dir.resolve("grove-home");
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib"));
        Path bin = Path.of("..", "dist", "src", "bin").toAbsolutePath().normalize();
        Files.copy(bin.resolve("grove"), home.resolve("bin").resolve("grove"));
        Files.copy(bin.resolve("grove-jvm-options"), home.resolve("bin").resolve("grove-jvm-options"));
        Files.writeString(home.resolve("lib").resolve("grove.jar"), "not really a jar");
        return home;
    }

    /** The arguments java got, with the jar's path as LIB. */
    private String run(Map<String, String> env, String... args) throws Exception {
        return runIn(Path.of("..", "dist", "src").toAbsolutePath().normalize(), env, args);
    }

    /**
     * The arguments java got from {@code home}'s launcher, with the jar's path as LIB. The stand-in
     * java writes an archive where it is asked to make one, as the JVM does at exit (read-only).
     */
    private String runIn(Path home, Map<String, String> env, String... args) throws Exception {
        Path out = dir.resolve("args");
        Path java = dir.resolve("java");
        // written once: an archive is kept per jar and java, as they were
        if (!Files.exists(java)) {
            Files.writeString(java, "#!/usr/bin/env bash\necho \"$*\" > '" + out + "'\necho \"$*\" >> '"
                    + dir.resolve("calls") + "'\n"
                    + "for a in \"$@\"; do case \"$a\" in -XX:ArchiveClassesAtExit=*) f=\"${a#*=}\"; echo classes > \"$f\"; "
                    + "chmod 400 \"$f\";; cds-training) echo \"GROVE_TOKEN=${GROVE_TOKEN-unset} "
                    + "XDG_CONFIG_HOME=${XDG_CONFIG_HOME-unset}\" > '" + dir.resolve("training-env") + "';; esac; done\n");
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        }
        Path launcher = home.resolve("bin").resolve("grove");
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
