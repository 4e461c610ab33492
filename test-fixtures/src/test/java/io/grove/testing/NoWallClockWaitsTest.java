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
 * No test of the repository sleeps for a time it guessed: {@code Thread.sleep}, {@code parkNanos}
 * and {@code TimeUnit...sleep} appear only in {@link Await}. A test waits for a condition, or runs
 * on an injected clock.
 */
class NoWallClockWaitsTest {

    static final Pattern WAIT = Pattern.compile("Thread\\.sleep\\(|parkNanos\\(|parkUntil\\(|\\.SECONDS\\.sleep\\(|"
            + "\\.MILLISECONDS\\.sleep\\(|\\.NANOSECONDS\\.sleep\\(|\\.MICROSECONDS\\.sleep\\(");

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
        Path file = Files.writeString(dir.resolve("T.java"), """
                class T {
                    // Thread.sleep(10) in a comment is fine
                    void a() throws Exception { Thread.sleep(10); }
                    void b() { java.util.concurrent.locks.LockSupport.parkNanos(5); }
                    void c() throws Exception { java.util.concurrent.TimeUnit.SECONDS.sleep(1); }
                }
                """);
        assertEquals(3, waits(file).size(), waits(file).toString());
    }
}
