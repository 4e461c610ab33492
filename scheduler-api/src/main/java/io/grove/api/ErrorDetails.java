package io.grove.api;

import java.util.List;
import java.util.Map;

/**
 * The {@code details} of a refusal, one record per shape, written as the object {@link ApiError}
 * carries (field names in snake case, as every API record): {@code {"pool": "a", "pool_tree": "t"}}.
 * Readers of an {@link ApiError} see a map, so that a client understands the details of a code it
 * does not know yet.
 */
public sealed interface ErrorDetails {

    /** The details as the JSON object they are written as. */
    default Map<String, Object> asMap() {
        return ApiJson.mapper().convertValue(this, ApiJson.mapper().getTypeFactory()
                .constructMapType(Map.class, String.class, Object.class));
    }

    /** A pool of a tree: one that cannot be paused, or does not exist. */
    record Pool(String pool, String poolTree) implements ErrorDetails {
    }

    /** A pool tree that does not exist. */
    record Tree(String poolTree) implements ErrorDetails {
    }

    /** What is wrong with a spec or a configuration, each problem with its path. */
    record Problems(List<Problem> problems) implements ErrorDetails {
    }

    /** The operation a refusal is about (the one a repeated submission made). */
    record Operation(String operationId) implements ErrorDetails {
    }

    /** How many what-ifs may run at once. */
    record MaxRunning(int maxRunning) implements ErrorDetails {
    }

    /** How long a what-if may run. */
    record Deadline(long deadlineSeconds) implements ErrorDetails {
    }

    /** The access rule that refused. */
    record Rule(String rule) implements ErrorDetails {
    }

    /** The query parameter that is wrong. */
    record Parameter(String parameter) implements ErrorDetails {
    }

    /** The largest page a list gives. */
    record MaxLimit(int maxLimit) implements ErrorDetails {
    }

    /** The largest request body taken. */
    record MaxBytes(long maxBytes) implements ErrorDetails {
    }

    /** Where the leader is, for a standby's {@code NOT_LEADER}. */
    record Leader(String leader) implements ErrorDetails {
    }
}
