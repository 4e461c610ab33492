package io.grove.server.http;

import io.grove.api.ConfigDiff;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.FairShareUpdate;
import io.grove.core.operation.Operation;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.pool.PoolsDiff;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code POST /api/v1/config/diff}: what a candidate pools file would change — trees and pools
 * added, removed and changed, pools still in use that it removes (a reload would be refused) —
 * and, per tree, every pool's fair share now and under the candidate for the current demands.
 * The inputs are taken on the scheduler's thread; the fair shares are computed off it.
 */
final class ConfigDiffs {

    private ConfigDiffs() {
    }

    /** What a diff needs from the live state, taken on the scheduler's thread. */
    record Prepared(List<ConfigDiff.Change> changes, List<ConfigDiff.InUse> inUse, Map<String, FairShareResult> before,
            Map<String, FairShareInput> after) {
    }

    /** The diff's first step, on the scheduler's thread: the changes, the pools in use, each tree's inputs. */
    static Prepared prepare(PoolsConfig current, PoolsConfig candidate, ClusterView cluster, Instant now) {
        PoolsDiff diff = PoolsDiff.of(current, candidate);
        List<ConfigDiff.Change> changes = new ArrayList<>();
        List<ConfigDiff.InUse> inUse = new ArrayList<>();
        for (PoolsDiff.Change change : diff.changes()) {
            changes.add(new ConfigDiff.Change(change.tree(), change.pool(), ApiValues.lower(change.kind()),
                    change.attributes().stream().map(ConfigDiffs::snake).toList()));
            int operations = operationsIn(cluster, change);
            if (operations > 0) {
                inUse.add(new ConfigDiff.InUse(change.tree(), change.pool(), operations));
            }
        }
        Map<String, FairShareResult> before = new LinkedHashMap<>();
        Map<String, FairShareInput> after = new LinkedHashMap<>();
        for (PoolTreeConfig tree : candidate.trees().values()) {
            if (cluster.treeNames().contains(tree.name())) {
                before.put(tree.name(), cluster.fairShare(tree.name()));
                after.put(tree.name(), cluster.whatIfInput(tree.name(), tree, now));
            }
        }
        return new Prepared(changes, inUse, before, after);
    }

    /** The diff's second step, pure, on any thread: every pool's fair share now and under the candidate. */
    static ConfigDiff compute(Prepared prepared) {
        Map<String, List<ConfigDiff.PoolShares>> trees = new LinkedHashMap<>();
        for (Map.Entry<String, FairShareInput> tree : prepared.after().entrySet()) {
            FairShareResult before = prepared.before().get(tree.getKey());
            FairShareResult after = FairShareUpdate.run(tree.getValue());
            List<ConfigDiff.PoolShares> pools = new ArrayList<>();
            for (Map.Entry<String, ElementShares> element : after.elements().entrySet()) {
                ElementShares shares = element.getValue();
                if (shares.kind() == ElementKind.OPERATION) {
                    continue;
                }
                ElementShares was = before == null ? null : before.elements().get(element.getKey());
                pools.add(new ConfigDiff.PoolShares(element.getKey(), shares.parent(),
                        was == null ? null : was.fairShare().total().max(), shares.fairShare().total().max(),
                        shares.demandShare().max()));
            }
            trees.put(tree.getKey(), pools);
        }
        return new ConfigDiff(prepared.changes(), prepared.inUse(), trees);
    }

    private static int operationsIn(ClusterView cluster, PoolsDiff.Change change) {
        if (change.kind() == PoolsDiff.Kind.TREE_REMOVED) {
            int count = 0;
            for (Operation operation : cluster.registry().operations()) {
                if (operation.poolByTree().containsKey(change.tree()) && !operation.state().isFinished()) {
                    count++;
                }
            }
            return count;
        }
        if (change.kind() == PoolsDiff.Kind.POOL_REMOVED && cluster.treeNames().contains(change.tree())) {
            return cluster.registry().counts(change.tree()).counts(change.pool()).operationCount();
        }
        return 0;
    }

    private static String snake(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }
}
