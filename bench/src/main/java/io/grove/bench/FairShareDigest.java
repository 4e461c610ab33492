package io.grove.bench;

import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.FairShareUpdate;
import io.grove.core.fairshare.FairShareWorkspace;
import io.grove.core.fairshare.TreeGenerator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints a digest of every element's shares for 76 generated trees (50 to 10,000 pools, with and
 * without gang operations), and each element in full for the small ones: run it before and after
 * a change to the fair-share update and compare the outputs byte for byte to show that no result
 * moved by even one bit.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.FairShareDigest &gt; before.txt</pre>
 */
public final class FairShareDigest {

    private FairShareDigest() {
    }

    public static void main(String[] args) {
        int[][] shapes = {{50, 300, 3}, {200, 2_000, 4}, {1_000, 10_000, 4}, {10_000, 100_000, 4}};
        // One workspace for every tree, large and small, as a daemon's for a tree whose size changes:
        // the digest must not change with it.
        FairShareWorkspace workspace = new FairShareWorkspace();
        for (int[] shape : shapes) {
            int seeds = shape[0] >= 10_000 ? 2 : 12;
            for (long seed = 1; seed <= seeds; seed++) {
                for (boolean gang : new boolean[] {false, true}) {
                    FairShareResult result = FairShareUpdate.run(TreeGenerator.generate(seed,
                            new TreeGenerator.Shape(shape[0], shape[1], shape[2], gang)), workspace);
                    Map<String, ElementShares> elements = new TreeMap<>(result.elements());
                    long digest = 0;
                    for (Map.Entry<String, ElementShares> element : elements.entrySet()) {
                        digest = digest * 31 + element.getKey().hashCode();
                        digest = digest * 31 + element.getValue().toString().hashCode();
                    }
                    System.out.println(shape[0] + "/" + shape[1] + " seed " + seed + " gang " + gang + " " + digest
                            + " " + result.root());
                    if (shape[0] <= 200 && seed <= 3) {
                        elements.forEach((id, shares) -> System.out.println("  " + id + " " + shares));
                    }
                }
            }
        }
    }
}
