package io.grove.cli.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the scheduler is: the flag, then GROVE_SCHEDULER, then the config file, then the default. */
class TargetTest {

    @Test
    void theFlagWinsThenTheEnvironmentThenTheFileThenTheDefault(@TempDir Path home) throws Exception {
        Path file = home.resolve(".config/grove/config.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "scheduler: http://from-file:8080/\nuser: filed\n");
        Map<String, String> env = Map.of("HOME", home.toString(), "GROVE_SCHEDULER", "env-host:9090");
        assertEquals("http://flag:1", Target.resolve("http://flag:1", null, env, "me").scheduler().toString());
        Target fromEnv = Target.resolve(null, null, env, "me");
        assertEquals("http://env-host:9090", fromEnv.scheduler().toString());
        assertEquals("filed", fromEnv.user());
        Target fromFile = Target.resolve(null, "given", Map.of("HOME", home.toString()), "me");
        assertEquals("http://from-file:8080", fromFile.scheduler().toString());
        assertEquals("given", fromFile.user());
        Target fallback = Target.resolve(null, null, Map.of("HOME", home.resolve("nobody").toString()), "me");
        assertEquals(Target.DEFAULT_SCHEDULER, fallback.scheduler().toString());
        assertEquals("me", fallback.user());
    }

    @Test
    void theTokenComesFromTheEnvironmentThenTheFile(@TempDir Path home) throws Exception {
        Path file = home.resolve(".config/grove/config.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "token: from-the-file-0123456789\n");
        assertEquals("from-the-env-0123456789", Target.resolve(null, null,
                Map.of("HOME", home.toString(), "GROVE_TOKEN", "from-the-env-0123456789"), "me").token());
        assertEquals("from-the-file-0123456789", Target.resolve(null, null, Map.of("HOME", home.toString()), "me").token());
        assertEquals(null, Target.resolve(null, null, Map.of("HOME", home.resolve("none").toString()), "me").token());
    }

    @Test
    void aTokenCommandPrintsTheTokenWhenNeitherTheEnvironmentNorTheFileGivesOne(@TempDir Path home) throws Exception {
        Path file = home.resolve(".config/grove/config.yaml");
        Files.createDirectories(file.getParent());
        Map<String, String> env = Map.of("HOME", home.toString());
        Files.writeString(file, "token_command: \"printf 'eyJ.fresh.jwt\\\\nsecond line\\\\n'\"\n");
        assertEquals("eyJ.fresh.jwt", Target.resolve(null, null, env, "me").token(), "its first line");
        assertEquals("from-the-env-0123456789", Target.resolve(null, null, Map.of("HOME", home.toString(), "GROVE_TOKEN",
                "from-the-env-0123456789"), "me").token(), "the environment first");
        Files.writeString(file, "token_command: \"echo refused >&2; exit 3\"\n");
        CliException failed = assertThrows(CliException.class, () -> Target.resolve(null, null, env, "me"));
        assertEquals(ExitCodes.FAILED, failed.exitCode());
        assertEquals("token_command in " + file + " failed (exit 3)", failed.getMessage());
        Files.writeString(file, "token_command: \"true\"\n");
        assertEquals("token_command in " + file + " printed no token",
                assertThrows(CliException.class, () -> Target.resolve(null, null, env, "me")).getMessage());
        Files.writeString(file, "token_command: \"head -c 100000 /dev/zero | tr '\\\\0' a\"\n");
        assertEquals("token_command in " + file + " printed more than 65536 bytes",
                assertThrows(CliException.class, () -> Target.resolve(null, null, env, "me")).getMessage());
    }

    @Test
    void aBadUrlOrFileIsAUsageError(@TempDir Path home) throws Exception {
        CliException bad = assertThrows(CliException.class, () -> Target.resolve("http://", null, Map.of(), "me"));
        assertEquals(ExitCodes.USAGE, bad.exitCode());
        Path file = home.resolve("grove/config.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "- not a mapping\n");
        CliException broken = assertThrows(CliException.class,
                () -> Target.resolve(null, null, Map.of("XDG_CONFIG_HOME", home.toString()), "me"));
        assertEquals(ExitCodes.USAGE, broken.exitCode());
    }
}
