package io.grove.core.fairshare;

/**
 * A tournament of {@code k} sorted runs by their current keys, smaller key first and then smaller
 * run: one match per level when a run advances, half of what a binary heap needs. Node {@code 0}
 * holds the winner, nodes {@code 1 .. k - 1} the loser of their match; run {@code i} is leaf
 * {@code k + i}.
 *
 * <p>Keys are non-negative {@code long}s, such as the bits of non-negative doubles (which order
 * as the doubles; see {@link #key}), so that a match is integer arithmetic without branches: the
 * runs' keys go either way at random, and a branch per match would be mispredicted every other
 * time.
 */
final class LoserTree {

    /** The key of a run that has nothing left: after every argument. */
    static final long END = Long.MAX_VALUE;

    private LoserTree() {
    }

    /**
     * The key of argument {@code x >= 0}: its bits, which order as the arguments do ({@code -0.0}
     * is taken as {@code 0.0}).
     */
    static long key(double x) {
        return Double.doubleToRawLongBits(x + 0.0);
    }

    /**
     * Plays every match of the first {@code k} runs once into {@code tree} (at least
     * {@code max(1, k)} long), with {@code winners} (at least {@code 2k} long) to work in: arrays
     * that one sweep after another can reuse.
     */
    static void build(long[] key, int k, int[] tree, int[] winners) {
        tree[0] = 0;
        if (k <= 1) {
            return;
        }
        for (int i = 0; i < k; i++) {
            winners[k + i] = i;
        }
        for (int node = k - 1; node >= 1; node--) {
            int a = winners[2 * node];
            int b = winners[2 * node + 1];
            boolean aWins = key[a] < key[b] || (key[a] == key[b] && a < b);
            winners[node] = aWins ? a : b;
            tree[node] = aWins ? b : a;
        }
        tree[0] = winners[1];
    }

    /**
     * The run that goes first among the first {@code k >= 1}: the smallest key, then the smallest
     * run, as {@link #build} and {@link #replay} put at the top, by looking at every key (without
     * branches, for the reason in the class comment).
     */
    static int first(long[] key, int k) {
        int best = 0;
        long bestKey = key[0];
        for (int i = 1; i < k; i++) {
            long candidate = key[i];
            // All ones where this run goes first: a strictly smaller key (keys are non-negative,
            // so the difference does not overflow); on a tie the earlier run stays.
            long mask = (candidate - bestKey) >> 63;
            best = (i & (int) mask) | (best & ~(int) mask);
            bestKey = (candidate & mask) | (bestKey & ~mask);
        }
        return best;
    }

    /**
     * Replays the matches of the first {@code k} runs on the way up from run {@code run}, whose key
     * has just changed.
     */
    static void replay(int[] tree, long[] key, int k, int run) {
        int winner = run;
        long winnerKey = key[run];
        for (int node = (k + run) >>> 1; node >= 1; node >>>= 1) {
            int other = tree[node];
            long otherKey = key[other];
            long difference = otherKey - winnerKey;
            // 1 where the other run goes first: a smaller key, or the same key and a smaller run.
            long smaller = difference >>> 63;
            long same = ((difference | -difference) >>> 63) ^ 1;
            long lowerRun = ((long) (other - winner)) >>> 63;
            long otherFirst = -(smaller | (same & lowerRun));
            int mask = (int) otherFirst;
            tree[node] = (winner & mask) | (other & ~mask);
            winner = (other & mask) | (winner & ~mask);
            winnerKey = (otherKey & otherFirst) | (winnerKey & ~otherFirst);
        }
        tree[0] = winner;
    }
}
