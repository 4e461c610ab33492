package io.grove.core.fairshare;

/**
 * A tournament of {@code k} sorted runs by their current keys, smaller key first and then smaller
 * run: one comparison per level when a run advances, half of what a binary heap needs. Node
 * {@code 0} holds the winner, nodes {@code 1 .. k - 1} the loser of their match; run {@code i}
 * is leaf {@code k + i}.
 */
final class LoserTree {

    private LoserTree() {
    }

    /** Plays every match once; {@code key[i]} is run {@code i}'s current key. */
    static int[] build(double[] key) {
        int k = key.length;
        int[] tree = new int[Math.max(1, k)];
        if (k <= 1) {
            return tree;
        }
        int[] winners = new int[2 * k];
        for (int i = 0; i < k; i++) {
            winners[k + i] = i;
        }
        for (int node = k - 1; node >= 1; node--) {
            int a = winners[2 * node];
            int b = winners[2 * node + 1];
            boolean aWins = before(a, b, key);
            winners[node] = aWins ? a : b;
            tree[node] = aWins ? b : a;
        }
        tree[0] = winners[1];
        return tree;
    }

    /** Replays the matches on the way up from run {@code run}, whose key has just changed. */
    static void replay(int[] tree, double[] key, int run) {
        int k = key.length;
        int winner = run;
        for (int node = (k + run) >>> 1; node >= 1; node >>>= 1) {
            int other = tree[node];
            if (before(other, winner, key)) {
                tree[node] = winner;
                winner = other;
            }
        }
        tree[0] = winner;
    }

    private static boolean before(int a, int b, double[] key) {
        double ka = key[a];
        double kb = key[b];
        return ka < kb || (ka == kb && a < b);
    }
}
