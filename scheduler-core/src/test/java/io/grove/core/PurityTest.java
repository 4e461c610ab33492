package io.grove.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the core pure: no wall clock, no ambient randomness, no sleeping, no I/O or threads in its
 * sources, and no clocks or sleeps in its tests either (they inject time and seeds).
 */
class PurityTest {

    private static final Pattern CLOCKS_AND_RANDOMNESS = Pattern.compile(
            "System\\.currentTimeMillis|System\\.nanoTime|Instant\\.now\\(|LocalDateTime\\.now\\(|new Random\\("
                    + "|Thread\\.sleep|Math\\.random\\(");
    private static final Pattern IO_AND_THREADS = Pattern.compile(
            "import java\\.io\\.|import java\\.nio\\.|import java\\.net\\.|new Thread\\(|ExecutorService|System\\.out|System\\.err");

    @Test
    void coreSourcesReadNoClockAndDoNoIo() throws IOException {
        assertEquals(List.of(), offending(Path.of("src/main/java"), CLOCKS_AND_RANDOMNESS));
        assertEquals(List.of(), offending(Path.of("src/main/java"), IO_AND_THREADS));
    }

    @Test
    void coreTestsNeitherSleepNorReadTheClock() throws IOException {
        List<String> hits = offending(Path.of("src/test/java"), CLOCKS_AND_RANDOMNESS);
        hits.removeIf(hit -> hit.startsWith(Path.of("src/test/java/io/grove/core/PurityTest.java").toString()));
        assertEquals(List.of(), hits);
    }

    private static List<String> offending(Path root, Pattern pattern) throws IOException {
        List<String> hits = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (pattern.matcher(lines.get(i)).find()) {
                        hits.add(file + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        return hits;
    }
}
