package io.grove.core.resource;

import java.util.Optional;

/** The five resources, in the order used by every vector in Grove. */
public enum ResourceType {
    USER_SLOTS("user_slots"),
    CPU("cpu"),
    GPU("gpu"),
    MEMORY("memory"),
    NETWORK("network");

    /** Number of resources in a vector. */
    public static final int COUNT = 5;

    private static final ResourceType[] VALUES = values();

    private final String key;

    ResourceType(String key) {
        this.key = key;
    }

    /** The snake_case name used in YAML, JSON and on the wire. */
    public String key() {
        return key;
    }

    public static ResourceType at(int index) {
        return VALUES[index];
    }

    public static Optional<ResourceType> fromKey(String key) {
        for (ResourceType type : VALUES) {
            if (type.key.equals(key)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
