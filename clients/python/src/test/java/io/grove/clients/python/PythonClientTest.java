package io.grove.clients.python;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs the Python client's pytest suite ({@code clients/python/tests}) against a real
 * {@code grove local} started from the jar this build made. The interpreter is {@code GROVE_PYTHON}
 * (the virtual environment {@code .ci/run} makes), else Debian's {@code /usr/bin/python3}; without
 * one that has {@code requests} and {@code pytest} the test says it is skipped.
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

    @Test
    void thePytestSuitePassesAgainstARealGroveLocal() throws Exception {
        String python = python();
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
