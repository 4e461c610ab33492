package io.grove.core.fairshare;

/**
 * The resources the functions of one update carry. A resource with no total, no demand and no
 * guarantee has share zero everywhere in the tree, so the piecewise-linear functions leave it out:
 * a cluster of CPU, memory and slots builds three-component functions instead of five. Vectors are
 * packed on their way into a function and unpacked on their way out; the arithmetic on the
 * resources kept is the same, so the results are exactly those of five components.
 */
final class Dims {

    /** Every resource, for a tree in which nothing has a share at all. */
    static final Dims ALL = new Dims(allIndexes());

    private final int[] index;
    private final boolean all;
    /** A shared packed zero; never written to. */
    final double[] zero;

    private Dims(int[] index) {
        this.index = index;
        this.all = index.length == Vec.N;
        this.zero = new double[index.length];
    }

    /**
     * The resources with a non-zero total, demand or strong guarantee anywhere: the only ones whose
     * shares can be non-zero (limits and integral shares are capped by the totals).
     */
    static Dims of(double[] total, CompositeElement root) {
        boolean[] active = new boolean[Vec.N];
        for (int r = 0; r < Vec.N; r++) {
            // usage is part of demand
            active[r] = total[r] > 0 || root.demand[r] > 0;
        }
        markGuarantees(root, active);
        int count = 0;
        for (boolean a : active) {
            count += a ? 1 : 0;
        }
        if (count == 0) {
            return ALL;
        }
        int[] index = new int[count];
        int k = 0;
        for (int r = 0; r < Vec.N; r++) {
            if (active[r]) {
                index[k++] = r;
            }
        }
        return new Dims(index);
    }

    private static void markGuarantees(CompositeElement pool, boolean[] active) {
        for (int r = 0; r < Vec.N; r++) {
            active[r] |= pool.strongGuaranteeShare[r] > 0;
        }
        for (CompositeElement child : pool.childPools) {
            markGuarantees(child, active);
        }
    }

    private static int[] allIndexes() {
        int[] index = new int[Vec.N];
        for (int r = 0; r < Vec.N; r++) {
            index[r] = r;
        }
        return index;
    }

    /** Number of components of the update's functions. */
    int count() {
        return index.length;
    }

    /** The kept components of a full vector; the vector itself when every resource is kept. Not to be written. */
    double[] pack(double[] full) {
        return all ? full : packInto(full, new double[index.length]);
    }

    /** As {@link #pack}, but into {@code out} (at least {@link #count} long), which it returns. */
    double[] packInto(double[] full, double[] out) {
        for (int i = 0; i < index.length; i++) {
            out[i] = full[index[i]];
        }
        assert packedLosesNothing(full) : "a resource left out of the functions has a share";
        return out;
    }

    /** The kept components of {@code a + b}, into {@code out}, which it returns. */
    double[] packSumInto(double[] a, double[] b, double[] out) {
        for (int i = 0; i < index.length; i++) {
            out[i] = a[index[i]] + b[index[i]];
        }
        return out;
    }

    /** The kept components of {@code min(cap, full_r)}, into {@code out}, which it returns. */
    double[] packCappedInto(double cap, double[] full, double[] out) {
        for (int i = 0; i < index.length; i++) {
            out[i] = Math.min(cap, full[index[i]]);
        }
        return out;
    }

    /** A full vector from a packed one (zero in the resources left out). */
    double[] unpack(double[] packed) {
        if (all) {
            return packed;
        }
        double[] out = new double[Vec.N];
        for (int i = 0; i < index.length; i++) {
            out[index[i]] = packed[i];
        }
        return out;
    }

    /** The full vector of the packed one at {@code packed[offset ..]}: a new vector. */
    double[] unpack(double[] packed, int offset) {
        double[] out = new double[Vec.N];
        for (int i = 0; i < index.length; i++) {
            out[index[i]] = packed[offset + i];
        }
        return out;
    }

    /** As {@link #unpack}, but always a new vector, so that {@code packed} can be used again. */
    double[] unpackCopy(double[] packed) {
        if (all) {
            return packed.clone();
        }
        return unpack(packed);
    }

    private boolean packedLosesNothing(double[] full) {
        double kept = 0;
        double sum = 0;
        for (int r = 0; r < Vec.N; r++) {
            sum += Math.abs(full[r]);
        }
        for (int i : index) {
            kept += Math.abs(full[i]);
        }
        return kept == sum;
    }
}
