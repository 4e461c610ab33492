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
        int[] position = new int[count];
        for (PiecewiseLinearFunction f : functions) {
            total += distinct(f);
        }
        CriticalPoints out = new CriticalPoints(total);
        int[] heap = new int[count];
        int size = 0;
        for (int i = 0; i < count; i++) {
            heap[size++] = i;
            siftUp(heap, size - 1, functions, position);
        }
        int k = 0;
        while (size > 0) {
            int i = heap[0];
            PiecewiseLinearFunction f = functions[i];
            int first = position[i];
            int last = first;
            while (last + 1 < f.size() && f.x(last + 1) == f.x(first)) {
                last++;
            }
            out.x[k] = f.x(first);
            out.child[k] = i;
            out.firstPoint[k] = first;
            out.lastPoint[k] = last;
            k++;
            position[i] = last + 1;
            if (position[i] >= f.size()) {
                heap[0] = heap[--size];
            }
            if (size > 0) {
                siftDown(heap, 0, size, functions, position);
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

    private static boolean less(int a, int b, PiecewiseLinearFunction[] functions, int[] position) {
        double xa = functions[a].x(position[a]);
        double xb = functions[b].x(position[b]);
        return xa < xb || (xa == xb && a < b);
    }

    private static void siftUp(int[] heap, int index, PiecewiseLinearFunction[] functions, int[] position) {
        while (index > 0) {
            int parent = (index - 1) / 2;
            if (!less(heap[index], heap[parent], functions, position)) {
                return;
            }
            swap(heap, index, parent);
            index = parent;
        }
    }

    private static void siftDown(int[] heap, int index, int size, PiecewiseLinearFunction[] functions, int[] position) {
        while (true) {
            int smallest = index;
            int left = 2 * index + 1;
            int right = left + 1;
            if (left < size && less(heap[left], heap[smallest], functions, position)) {
                smallest = left;
            }
            if (right < size && less(heap[right], heap[smallest], functions, position)) {
                smallest = right;
            }
            if (smallest == index) {
                return;
            }
            swap(heap, index, smallest);
            index = smallest;
        }
    }

    private static void swap(int[] heap, int a, int b) {
        int t = heap[a];
        heap[a] = heap[b];
        heap[b] = t;
    }
}
