package io.grove.api;

/** A share of the tree's total per resource, each in [0, 1]. */
public record ResourceShares(double userSlots, double cpu, double gpu, double memory, double network) {

    /** The dominant share: the largest of the five. */
    public double dominant() {
        return Math.max(Math.max(Math.max(userSlots, cpu), Math.max(gpu, memory)), network);
    }
}
