package io.grove.core.schedule;

import io.grove.core.resource.ResourceType;
import java.util.ArrayList;
import java.util.List;

/** A self-check of a scheduling index, for the simulator's invariants. */
public final class UsageMismatches {

    private static final int N = SchedulingIndex.N;

    private UsageMismatches() {
    }

    /**
     * Checks the live usage of every element against the sum of its operations' running jobs.
     *
     * @return one line per element whose usage differs
     */
    public static List<String> of(SchedulingIndex index) {
        double[] expected = new double[index.size * N];
        for (int at = 0; at < index.size; at++) {
            if (index.operations[at] == null) {
                continue;
            }
            double[] own = index.operations[at].usageIn(index.tree).toArray();
            for (int a = at; a >= 0; a = index.parent[a]) {
                for (int r = 0; r < N; r++) {
                    expected[a * N + r] += own[r];
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (int at = 0; at < index.size; at++) {
            for (int r = 0; r < N; r++) {
                double want = expected[at * N + r];
                double have = index.usage[at * N + r];
                if (Math.abs(want - have) > 1e-6 * Math.max(1, Math.abs(want))) {
                    out.add("tree " + index.tree + ": usage of " + index.ids[at] + " is " + have + " "
                            + ResourceType.at(r).key() + " but its running jobs sum to " + want);
                }
            }
        }
        return out;
    }
}
