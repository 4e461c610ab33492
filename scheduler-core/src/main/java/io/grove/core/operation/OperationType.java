package io.grove.core.operation;

/**
 * The kind of an operation. Grove runs every operation as tasks of shell commands; the type only
 * matters for count limits: only {@code vanilla} operations can be lightweight (see docs/scheduling.md#operation-count-limits).
 * {@code map} stands for every other kind a workload may declare.
 */
public enum OperationType {
    VANILLA("vanilla"),
    MAP("map");

    private final String key;

    OperationType(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
