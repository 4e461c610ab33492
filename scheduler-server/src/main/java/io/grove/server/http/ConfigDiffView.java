package io.grove.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.core.cluster.Cluster;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.operation.Operation;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.pool.PoolsDiff;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * {@code POST /api/v1/config/diff}: what a candidate pools file would change — trees and pools
 * added, removed and changed, pools still in use that it removes (a reload would be refused) —
 * and, per tree, every pool's fair share now and under the candidate for the current demands.
 */
final class ConfigDiffView {

    private final ObjectMapper json;

    ConfigDiffView(ObjectMapper json) {
        this.json = json;
    }

    ObjectNode render(PoolsConfig current, PoolsConfig candidate, Cluster cluster, Instant now) {
        ObjectNode body = json.createObjectNode();
        PoolsDiff diff = PoolsDiff.of(current, candidate);
        ArrayNode changes = body.putArray("changes");
        ArrayNode blocking = body.putArray("in_use");
        for (PoolsDiff.Change change : diff.changes()) {
            ObjectNode node = changes.addObject();
            node.put("tree", change.tree());
            if (change.pool() != null) {
                node.put("pool", change.pool());
            }
            node.put("kind", change.kind().name().toLowerCase(Locale.ROOT));
            ArrayNode attributes = node.putArray("attributes");
            change.attributes().forEach(a -> attributes.add(snake(a)));
            int operations = operationsIn(cluster, change);
            if (operations > 0) {
                ObjectNode use = blocking.addObject();
                use.put("tree", change.tree());
                if (change.pool() != null) {
                    use.put("pool", change.pool());
                }
                use.put("operations", operations);
            }
        }
        ObjectNode trees = body.putObject("fair_shares");
        for (PoolTreeConfig tree : candidate.trees().values()) {
            if (!cluster.treeNames().contains(tree.name())) {
                continue;
            }
            FairShareResult before = cluster.fairShare(tree.name());
            FairShareResult after = cluster.whatIf(tree.name(), tree, now);
            ArrayNode pools = trees.putArray(tree.name());
            for (Map.Entry<String, ElementShares> element : after.elements().entrySet()) {
                ElementShares shares = element.getValue();
                if (shares.kind() == ElementKind.OPERATION) {
                    continue;
                }
                ObjectNode pool = pools.addObject();
                pool.put("pool", element.getKey());
                pool.put("parent", shares.parent());
                ElementShares was = before == null ? null : before.elements().get(element.getKey());
                if (was != null) {
                    pool.put("fair_share_now", was.fairShare().total().max());
                }
                pool.put("fair_share_new", shares.fairShare().total().max());
                pool.put("demand_share", shares.demandShare().max());
            }
        }
        return body;
    }

    private static int operationsIn(Cluster cluster, PoolsDiff.Change change) {
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
