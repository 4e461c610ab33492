package io.grove.core.operation;

/** Why a submission or an operation update was refused. */
public enum SubmitError {
    /** The spec itself is invalid. */
    INVALID_SPEC,
    /** A named pool tree does not exist. */
    UNKNOWN_TREE,
    /** A named pool does not exist in its tree. */
    UNKNOWN_POOL,
    /** A pool on the path is at its {@code max_operation_count} (the reference's error 202). */
    TOO_MANY_OPERATIONS,
    /** The pool has {@code forbid_immediate_operations}. */
    FORBIDDEN_IMMEDIATE_OPERATIONS,
    /** The user is at {@code max_ephemeral_pools_per_user}. */
    TOO_MANY_EPHEMERAL_POOLS,
    /** The pool is another user's ephemeral pool. */
    FOREIGN_EPHEMERAL_POOL,
    /** A dependency names another user's operation, which the submitter may not wait for. */
    FOREIGN_OPERATION,
    /** No such operation. */
    NO_SUCH_OPERATION,
    /** The operation is in a state that does not allow the request. */
    INVALID_STATE
}
