package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.pool.FifoSortParameter;
import java.util.Comparator;
import java.util.List;

/** A FIFO pool's order, fit-factor function and children's shares. */
final class FifoShares {

    private FifoShares() {
    }

    /** The FIFO order of a pool's operations: the sort parameters in turn, then submission order. */
    static Comparator<Element> order(List<FifoSortParameter> parameters) {
        Comparator<Element> order = (a, b) -> 0;
        for (FifoSortParameter parameter : parameters) {
            order = order.thenComparing(switch (parameter) {
                case WEIGHT -> Comparator.comparingDouble((Element e) -> -e.weight());
                case START_TIME -> Comparator.comparing((Element e) -> ((OperationElement) e).operation.startTime(),
                        Comparator.nullsLast(Comparator.naturalOrder()));
                case PENDING_JOB_COUNT -> Comparator.comparingInt((Element e) -> ((OperationElement) e).operation.pendingJobCount());
            });
        }
        return order.thenComparingInt(e -> ((OperationElement) e).order);
    }

    /**
     * FIFO: child {@code k} ramps on {@code [k, k + 1]} on top of the full shares of the children
     * before it, so the first child gets all it can before the second gets anything.
     */
    static PiecewiseLinearFunction fitFactorFunction(List<Element> sortedChildren, int d, FunctionBuilder builder) {
        double[] prefix = new double[d];
        double[] value = new double[d];
        double shift = 0;
        for (Element child : sortedChildren) {
            PiecewiseLinearFunction fsbs = child.fairShareBySuggestion;
            for (int i = 0; i < fsbs.size(); i++) {
                for (int c = 0; c < d; c++) {
                    value[c] = fsbs.v(i, c) + prefix[c];
                }
                builder.add(fsbs.x(i) + shift, value, 0);
            }
            double[] full = fsbs.rightValue();
            double[] next = new double[d];
            for (int c = 0; c < d; c++) {
                next[c] = prefix[c] + full[c];
            }
            prefix = next;
            shift += 1.0;
        }
        return builder.build();
    }

    /**
     * The share the FIFO child at {@code position} gets at pool fit factor {@code f}. Within its own
     * stretch the child is read off its plot moved right by its position, exactly as the pool's plot
     * was built: subtracting the position from {@code f} instead would round, and could put a child
     * over the top of a jump (a gang operation's whole demand) that the pool's fit factor stops
     * below.
     */
    static double[] childShareAt(Element child, int position, double f, Dims dims) {
        int satisfied = (int) f;
        if (position < satisfied) {
            return dims.unpack(child.fairShareBySuggestion.valueAt(1.0));
        }
        if (position == satisfied && f > satisfied) {
            return dims.unpack(child.fairShareBySuggestion.shift(position).valueAt(f));
        }
        return Vec.zero();
    }
}
