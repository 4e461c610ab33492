package io.grove.clients.python;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the Python client's pytest suite ({@code clients/python/tests}) against a real
 * {@code grove local} started from the jar this build made, once for each Python: {@code GROVE_PYTHON}
 * (the virtual environment {@code .ci/run} makes), else Debian's {@code /usr/bin/python3}, and each
 * of {@code GROVE_PYTHONS} (the other versions the client claims, where the machine has them:
 * {@code .ci/run} makes a virtual environment for 3.9 and 3.12). One without {@code requests} and
 * {@code pytest} is said to be skipped.
 */
class PythonClientTest {

    static final Path MODULE = Path.of("").toAbsolutePath();
    static final Path JAR = MODULE.resolve("../../cli/target/grove.jar").normalize();

    static String python() {
        String given = System.getenv("GROVE_PYTHON");
        if (given != null && !given.isBlank()) {
            return given;
        }
        return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    }

    static boolean usable(String python) {
        try {
            Process probe = new ProcessBuilder(python, "-c", "import requests, pytest").redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The interpreters: {@link #python()}, then each of {@code GROVE_PYTHONS}. */
    static List<String> pythons() {
        List<String> all = new ArrayList<>(List.of(python()));
        String others = System.getenv("GROVE_PYTHONS");
        if (others != null) {
            for (String other : others.strip().split("\\s+")) {
                if (!other.isEmpty()) {
                    all.add(other);
                }
            }
        }
        return all;
    }

    @TestFactory
    Stream<DynamicTest> thePytestSuitePassesAgainstARealGroveLocal() {
        return pythons().stream().map(python -> DynamicTest.dynamicTest("pytest on " + python, () -> suite(python)));
    }

    static void suite(String python) throws Exception {
        Assumptions.assumeTrue(usable(python), python + " has no requests and pytest (apt-get install python3-requests "
                + "python3-pytest, or GROVE_PYTHON=a virtual environment's python): the Python client's tests are skipped");
        Assumptions.assumeTrue(Files.isRegularFile(JAR), "no " + JAR + ": the cli module was not packaged");
        ProcessBuilder builder = new ProcessBuilder(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
                .directory(MODULE.toFile()).redirectErrorStream(true);
        builder.environment().put("GROVE_JAR", JAR.toString());
        builder.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        Process pytest = builder.start();
        String output = new String(pytest.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean ended = pytest.waitFor(10, TimeUnit.MINUTES);
        if (!ended) {
            pytest.destroyForcibly();
        }
        System.out.println(output);
        assertEquals(0, ended ? pytest.exitValue() : -1, "pytest failed:\n" + output);
        List<String> lines = output.lines().toList();
        String summary = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        Assumptions.assumeFalse(summary.contains("skipped") && !summary.contains("passed"), summary);
    }
}
