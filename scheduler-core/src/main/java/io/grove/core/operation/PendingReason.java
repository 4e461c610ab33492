package io.grove.core.operation;

/**
 * Why an operation waits in a tree: the lowest pool on its path whose running-operation limit is
 * reached, and where the operation stands in that pool's queue.
 *
 * @param tree the pool tree
 * @param pool the pool whose limit holds it
 * @param limit that pool's effective {@code max_running_operation_count}
 * @param position 1-based position in the pool's queue of pending operations
 */
public record PendingReason(String tree, String pool, int limit, int position) {

    /** The reference's operation alert text. */
    public String message() {
        return "Max running operation count violated: pool " + pool + " in tree " + tree + " runs " + limit
                + " of " + limit + " allowed; position " + position + " in its queue";
    }
}
