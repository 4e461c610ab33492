package io.grove.core.fairshare;

import io.grove.core.fairshare.function.PiecewiseLinearFunction;

/**
 * The breakpoints of a pool's children, merged in order of the argument and then of the child:
 * every distinct argument of every child's plot, with the first and last point of the child's
 * plot there (they differ where the child jumps). Merged with a heap, in {@code O(P log C)}.
 */
final class CriticalPoints {

    final double[] x;
    final int[] child;
    final int[] firstPoint;
    final int[] lastPoint;

    private CriticalPoints(int size) {
        x = new double[size];
        child = new int[size];
        firstPoint = new int[size];
        lastPoint = new int[size];
    }

    static CriticalPoints merge(PiecewiseLinearFunction[] functions) {
        int count = functions.length;
        int total = 0;
        for (PiecewiseLinearFunction f : functions) {
            total += distinct(f);
        }
        CriticalPoints out = new CriticalPoints(total);
        int[] position = new int[count];
        // The argument each child is at, kept beside the heap so that comparisons read one array.
        double[] key = new double[count];
        int[] heap = new int[count];
        int size = 0;
        for (int i = 0; i < count; i++) {
            key[i] = functions[i].x(0);
            heap[size++] = i;
            siftUp(heap, size - 1, key);
        }
        int k = 0;
        while (size > 0) {
            int i = heap[0];
            PiecewiseLinearFunction f = functions[i];
            int first = position[i];
            int last = first;
            double x = key[i];
            int n = f.size();
            while (last + 1 < n && f.x(last + 1) == x) {
                last++;
            }
            out.x[k] = x;
            out.child[k] = i;
            out.firstPoint[k] = first;
            out.lastPoint[k] = last;
            k++;
            position[i] = last + 1;
            if (last + 1 >= n) {
                heap[0] = heap[--size];
            } else {
                key[i] = f.x(last + 1);
            }
            if (size > 0) {
                siftDown(heap, 0, size, key);
            }
        }
        return out;
    }

    private static int distinct(PiecewiseLinearFunction f) {
        int n = 1;
        for (int p = 1; p < f.size(); p++) {
            if (f.x(p) != f.x(p - 1)) {
                n++;
            }
        }
        return n;
    }

    private static boolean less(int a, int b, double[] key) {
        double xa = key[a];
        double xb = key[b];
        return xa < xb || (xa == xb && a < b);
    }

    private static void siftUp(int[] heap, int index, double[] key) {
        while (index > 0) {
            int parent = (index - 1) / 2;
            if (!less(heap[index], heap[parent], key)) {
                return;
            }
            swap(heap, index, parent);
            index = parent;
        }
    }

    private static void siftDown(int[] heap, int index, int size, double[] key) {
        int moving = heap[index];
        while (true) {
            int left = 2 * index + 1;
            if (left >= size) {
                break;
            }
            int right = left + 1;
            int child = right < size && less(heap[right], heap[left], key) ? right : left;
            if (!less(heap[child], moving, key)) {
                break;
            }
            heap[index] = heap[child];
            index = child;
        }
        heap[index] = moving;
    }

    private static void swap(int[] heap, int a, int b) {
        int t = heap[a];
        heap[a] = heap[b];
        heap[b] = t;
    }
}
