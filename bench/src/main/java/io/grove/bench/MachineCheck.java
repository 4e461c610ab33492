package io.grove.bench;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What the machine gives right now, to be recorded next to a round's figures: the latency of a
 * memory load that misses every cache (a pointer chase through 64 MB in random order) and the
 * rate of filling and of reading 256 MB. The machine is shared: its speed for the fair-share
 * update follows these (the update waits on memory), and they move by a factor of two or more
 * between hours, so compare only figures taken in alternation, and say which machine they had.
 *
 * <pre>java -Xmx2g -cp bench/target/benchmarks.jar io.grove.bench.MachineCheck</pre>
 */
public final class MachineCheck {

    private static final int CHASE = 16 * 1024 * 1024;
    private static final int HOPS = 5_000_000;
    private static final int STREAM = 32 * 1024 * 1024;

    private MachineCheck() {
    }

    public static void main(String[] args) {
        int[] next = randomCycle(CHASE, new SplittableRandom(1));
        long[] stream = new long[STREAM];
        // Once to warm the code, then measured.
        chase(next, HOPS / 10);
        fill(stream, 1);
        sum(stream);
        long start = System.nanoTime();
        int end = chase(next, HOPS);
        double latency = (System.nanoTime() - start) / (double) HOPS;
        start = System.nanoTime();
        for (int round = 0; round < 4; round++) {
            fill(stream, round);
        }
        double write = 4.0 * STREAM * Long.BYTES / (System.nanoTime() - start);
        start = System.nanoTime();
        long total = sum(stream);
        double read = (double) STREAM * Long.BYTES / (System.nanoTime() - start);
        System.out.printf("memory: %.0f ns a load that misses (64 MB in random order), fill %.1f GB/s, read %.1f GB/s"
                + " (%d, %d)%n", latency, write, read, end & 1, total & 1);
    }

    /** One cycle through every index, in random order (Sattolo's shuffle). */
    private static int[] randomCycle(int size, SplittableRandom random) {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        int[] next = new int[size];
        for (int i = 0; i < size; i++) {
            next[order[i]] = order[(i + 1) % size];
        }
        return next;
    }

    private static int chase(int[] next, int hops) {
        int at = 0;
        for (int i = 0; i < hops; i++) {
            at = next[at];
        }
        return at;
    }

    private static void fill(long[] values, long value) {
        Arrays.fill(values, value);
    }

    private static long sum(long[] values) {
        long total = 0;
        for (long value : values) {
            total += value;
        }
        return total;
    }
}
