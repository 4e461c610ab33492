package io.grove.core.operation;

import java.util.Set;

/**
 * What an operation's {@code depends_on} says now, read from the registry: an operation waits
 * while one of the operations it depends on has not ended, and can never start once one ended
 * otherwise than its condition asks (it is then aborted, saying why). An operation the registry no
 * longer has (forgotten long after it ended, or absent from a forecast's copy) holds nothing: it
 * was decided on when it ended.
 */
public final class OperationDependencies {

    private OperationDependencies() {
    }

    /** The first operation {@code operation} waits for that has not ended, or {@code null}. */
    public static Dependency waitingFor(Operation operation, OperationsView registry) {
        for (Dependency dependency : operation.spec().dependsOn()) {
            Operation other = registry.operation(dependency.operation());
            if (other != null && !other.state().isFinished()) {
                return dependency;
            }
        }
        return null;
    }

    /** Why {@code operation} can never start (a dependency ended otherwise), or {@code null}. */
    public static String never(Operation operation, OperationsView registry) {
        return never(operation, registry, Set.of());
    }

    /**
     * As above, taking the operations in {@code aborting} (about to be aborted, because they can
     * never start either) as aborted already: a chain is decided in one pass, in submission order.
     */
    public static String never(Operation operation, OperationsView registry, Set<String> aborting) {
        for (Dependency dependency : operation.spec().dependsOn()) {
            Operation other = registry.operation(dependency.operation());
            OperationState state = other == null ? null
                    : aborting.contains(other.id()) ? OperationState.ABORTED : other.state();
            if (state != null && state.isFinished() && !dependency.condition().heldBy(state)) {
                return "operation " + other.id() + " ended " + state.key() + ", and this one waited for "
                        + dependency.describe() + ": it can never start";
            }
        }
        return null;
    }

    /** What a user is told of an operation that waits: which operation, for what, and how far it is. */
    public static String describeWait(Dependency dependency, OperationsView registry) {
        Operation other = registry.operation(dependency.operation());
        return "it waits for operation " + dependency.describe() + (other == null ? ""
                : " (" + other.state().key() + ", " + other.completedJobCount() + " of " + other.spec().jobCount()
                        + " jobs completed)");
    }
}
