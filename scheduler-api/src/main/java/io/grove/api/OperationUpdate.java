package io.grove.api;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * {@code PATCH /api/v1/operations/{id}}: any of a new weight, resource limits (all trees) and a
 * pool (in {@code tree}, by default the operation's first).
 */
public record OperationUpdate(Double weight, Quantities resourceLimits, String pool, String tree) {

    @JsonIgnore
    public boolean isEmpty() {
        return weight == null && resourceLimits == null && pool == null && tree == null;
    }
}
