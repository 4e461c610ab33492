package io.grove.server.http;

import io.grove.core.cluster.ClusterView;
import io.grove.core.operation.Dependency;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.SubmitError;
import io.grove.core.operation.SubmitException;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A submission's {@code depends_on}, checked where the operations are known: each names an
 * operation the scheduler has (not one still being written), that the submitter may wait for (its
 * own, or one whose pool it administers), and whose end has not already ruled the condition out.
 */
final class DependencyChecks {

    private DependencyChecks() {
    }

    /**
     * @param mayWaitFor whether the submitter may wait for another user's operation
     * @throws SubmitException {@link SubmitError#INVALID_SPEC} for an unknown operation or a condition that can no
     *     longer hold, {@link SubmitError#FOREIGN_OPERATION} for another user's
     */
    static void check(ClusterView cluster, OperationSpec spec, String user, Predicate<Operation> mayWaitFor) {
        for (Dependency dependency : spec.dependsOn()) {
            Operation other = cluster.registry().operation(dependency.operation());
            if (other == null || other.held()) {
                throw new SubmitException(SubmitError.INVALID_SPEC, "depends_on: no operation " + dependency.operation()
                        + " (see your operations with 'grove ops list --all')", Map.of("operation", dependency.operation()));
            }
            if (!other.user().equals(user) && !mayWaitFor.test(other)) {
                throw new SubmitException(SubmitError.FOREIGN_OPERATION, "depends_on: operation " + other.id()
                        + " is " + other.user() + "'s: wait only for your own operations, or ones in pools you administer",
                        Map.of("operation", other.id()));
            }
            if (other.state().isFinished() && !dependency.condition().heldBy(other.state())) {
                throw new SubmitException(SubmitError.INVALID_SPEC, "depends_on: operation " + other.id() + " ended "
                        + other.state().key() + ", so waiting for " + dependency.describe() + " would wait forever",
                        Map.of("operation", other.id()));
            }
        }
    }
}
