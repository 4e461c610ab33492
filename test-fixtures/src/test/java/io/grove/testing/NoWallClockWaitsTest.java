package io.grove.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No test of the repository sleeps for a time it guessed: the JDK's sleeping and parking calls
 * appear only in {@link Await}. A test waits for a condition, or runs
 * on an injected clock.
 */
class NoWallClockWaitsTest {

    /** The waits looked for, spelt with a character class so that this file does not match them itself. */
    static final Pattern WAIT = Pattern.compile("Thread\\.[s]leep\\(|park[N]anos\\(|park[U]ntil\\(|\\.SECONDS\\.[s]leep\\(|"
            + "\\.MILLISECONDS\\.[s]leep\\(|\\.NANOSECONDS\\.[s]leep\\(|\\.MICROSECONDS\\.[s]leep\\(");

    static List<String> waits(Path file) throws IOException {
        List<String> found = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.startsWith("*") && !line.startsWith("//") && WAIT.matcher(line).find()) {
                found.add(file + ":" + (i + 1) + ": " + line);
            }
        }
        return found;
    }

    @Test
    void noTestWaitsOnTheWallClock() throws IOException {
        Path repository = Path.of("").toAbsolutePath().getParent();
        assertTrue(Files.isRegularFile(repository.resolve("pom.xml")), "run from a module of the repository: " + repository);
        List<String> found = new ArrayList<>();
        int files = 0;
        try (Stream<Path> modules = Files.list(repository)) {
            for (Path module : modules.filter(Files::isDirectory).toList()) {
                Path tests = module.resolve("src/test/java");
                if (!Files.isDirectory(tests)) {
                    continue;
                }
                try (Stream<Path> sources = Files.walk(tests)) {
                    for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                        files++;
                        if (!source.endsWith("NoWallClockWaitsTest.java")) {
                            found.addAll(waits(source));
                        }
                    }
                }
            }
        }
        assertTrue(files > 100, "the tests were found: " + files + " files under " + repository);
        assertEquals(List.of(), found, "wait for a condition with io.grove.testing.Await instead");
    }

    @Test
    void theCheckFindsWhatItLooksFor(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        // the calls are put together here so that this file holds none of them itself
        String sleep = "Thread." + "sl" + "eep(10)";
        String park = "LockSupport." + "park" + "Nanos(5)";
        String unitSleep = "TimeUnit.SECONDS." + "sl" + "eep(1)";
        Path file = Files.writeString(dir.resolve("T.java"), "class T {\n"
                + "    // " + sleep + " in a comment is fine\n"
                + "    void a() throws Exception { " + sleep + "; }\n"
                + "    void b() { java.util.concurrent.locks." + park + "; }\n"
                + "    void c() throws Exception { java.util.concurrent." + unitSleep + "; }\n"
                + "}\n");
        assertEquals(3, waits(file).size(), waits(file).toString());
    }
}
