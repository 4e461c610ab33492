package io.grove.core.operation;

/**
 * Where a gang's ranks must or should sit: inside one domain of a topology level of its tree
 * (spec {@code topology: {required: rack}} or {@code {preferred: rack}}), or anywhere.
 *
 * @param level the level, one of the tree's {@code topology_levels}; {@code null}: anywhere
 * @param required whether every rank must be in one domain of it (else: as few domains as the
 *     planner can, one when one fits)
 */
public record GangTopology(String level, boolean required) {

    /** No constraint: anywhere in the tree. */
    public static final GangTopology NONE = new GangTopology(null, false);

    public GangTopology {
        if (level != null && level.isBlank()) {
            throw new IllegalArgumentException("a gang's topology level must not be blank");
        }
    }

    /** Whether a level is named. */
    public boolean constrained() {
        return level != null;
    }

    /** {@code required rack}, {@code preferred rack} or {@code none}, for messages. */
    public String describe() {
        return level == null ? "none" : (required ? "required " : "preferred ") + level;
    }
}
