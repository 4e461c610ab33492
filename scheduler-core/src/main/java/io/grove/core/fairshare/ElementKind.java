package io.grove.core.fairshare;

/** Kinds of elements of a pool tree. */
public enum ElementKind {
    ROOT,
    POOL,
    OPERATION
}
