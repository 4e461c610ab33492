package io.grove.e2e;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Runs the end-to-end tests only where a Docker engine answers; elsewhere they are skipped with a
 * message on stderr that says so and how to run them, never silently.
 */
public final class DockerRequired implements ExecutionCondition {

    private static volatile Boolean available;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (available == null) {
            boolean found;
            try {
                found = DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException e) {
                found = false;
            }
            available = found;
            if (!found) {
                System.err.println("*** END-TO-END TESTS SKIPPED: no Docker engine answers here. Install docker.io, start"
                        + " dockerd, and run again (.ci/run does both). ***");
            }
        }
        return available ? ConditionEvaluationResult.enabled("Docker is available")
                : ConditionEvaluationResult.disabled("SKIPPED: no Docker engine (install docker.io and start dockerd)");
    }
}
