package io.grove.core.operation;

import java.util.Locale;
import java.util.Objects;

/**
 * An operation an operation waits for ({@code depends_on}), as Slurm's {@code
 * --dependency=afterok} and {@code afterany}: it starts no job until the other one has ended so.
 *
 * @param operation the other operation's id
 * @param condition how it must have ended
 */
public record Dependency(String operation, Condition condition) {

    /** How the other operation must have ended. */
    public enum Condition {
        /** Completed (Slurm's {@code afterok}): a failed or aborted one never lets it start. */
        COMPLETED,
        /** Finished however it ended (Slurm's {@code afterany}). */
        FINISHED;

        private final String key = name().toLowerCase(Locale.ROOT);

        public String key() {
            return key;
        }

        /** Whether an operation that ended in {@code state} satisfies it. */
        public boolean heldBy(OperationState state) {
            return this == FINISHED ? state.isFinished() : state == OperationState.COMPLETED;
        }
    }

    /** The most operations one may wait for. */
    public static final int MAX = 64;

    public Dependency {
        Objects.requireNonNull(operation);
        condition = condition == null ? Condition.COMPLETED : condition;
    }

    /** What a user is told: {@code op-3 to complete}, {@code op-3 to finish}. */
    public String describe() {
        return operation + (condition == Condition.COMPLETED ? " to complete" : " to finish");
    }
}
