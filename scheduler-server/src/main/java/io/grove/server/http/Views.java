package io.grove.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.config.whatif.ResultJson;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.NodeFit;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationPreemption;
import io.grove.core.operation.PendingReason;
import io.grove.core.operation.PoolOperationCounts;
import io.grove.core.operation.TreePools;
import io.grove.core.pool.IntegralGuaranteesConfig;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.server.net.NodeAddresses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** JSON views of the scheduler's state, built on the scheduler's thread. */
final class Views {

    private final ObjectMapper json;

    private final NodeAddresses addresses;

    Views(ObjectMapper json, NodeAddresses addresses) {
        this.json = json;
        this.addresses = addresses;
    }

    ObjectNode resources(Resources resources) {
        ObjectNode node = json.createObjectNode();
        for (ResourceType type : ResourceType.values()) {
            double value = resources.get(type);
            if (Double.isInfinite(value)) {
                continue;
            }
            if (value == Math.rint(value) && Math.abs(value) < 1e15) {
                node.put(type.key(), (long) value);
            } else {
                node.put(type.key(), value);
            }
        }
        return node;
    }

    static String lower(Enum<?> value) {
        return value == null ? null : value.name().toLowerCase(Locale.ROOT);
    }

    static String time(Instant at) {
        return at == null ? null : at.toString();
    }

    ObjectNode operationSummary(Operation operation, Cluster cluster) {
        ObjectNode node = json.createObjectNode();
        node.put("id", operation.id());
        node.put("user", operation.user());
        node.put("title", operation.spec().title());
        node.put("state", lower(operation.state()));
        node.set("pools", json.valueToTree(operation.poolByTree()));
        node.set("progress", progress(operation));
        node.put("submitted_at", time(operation.submitTime()));
        if (operation.finishTime() != null) {
            node.put("finished_at", time(operation.finishTime()));
        }
        String tree = operation.poolByTree().keySet().iterator().next();
        PendingReason pending = cluster.registry().pendingReason(operation.id(), tree);
        if (pending != null) {
            node.set("pending_reason", pendingReason(pending));
        } else if (!operation.state().isFinished()) {
            List<String> tooLarge = NodeFit.tasksLargerThanEveryNode(cluster.nodes(), operation, tree);
            if (!tooLarge.isEmpty()) {
                ObjectNode reason = node.putObject("pending_reason");
                reason.put("code", "job_larger_than_every_node");
                reason.put("tree", tree);
                reason.put("message", String.join("; ", tooLarge));
            }
        }
        ElementShares shares = shares(cluster, tree, operation.id());
        if (shares != null) {
            node.put("fair_share", shares.fairShare().total().max());
            node.put("usage_share", shares.usageShare().max());
            node.put("demand_share", shares.demandShare().max());
            node.put("starvation", lower(cluster.starving(tree).getOrDefault(operation.id(), StarvationStatus.NON_STARVING)));
        }
        return node;
    }

    ObjectNode operation(Operation operation, Cluster cluster) {
        ObjectNode node = operationSummary(operation, cluster);
        node.put("type", lower(operation.spec().type()));
        node.put("weight", operation.spec().weight());
        node.put("preemption_mode", lower(operation.spec().preemptionMode()));
        node.put("max_failed_job_count", operation.spec().maxFailedJobCount());
        OperationPreemption own = operation.spec().preemption();
        if (own.fairShareStarvationTolerance() != null) {
            node.put("fair_share_starvation_tolerance", own.fairShareStarvationTolerance());
        }
        if (own.fairShareStarvationTimeoutMillis() != null) {
            node.put("fair_share_starvation_timeout", own.fairShareStarvationTimeoutMillis() / 1000.0 + "s");
        }
        if (own.nonPreemptibleResourceUsageThreshold() != null) {
            ObjectNode threshold = node.putObject("non_preemptible_resource_usage_threshold");
            double[] values = own.nonPreemptibleResourceUsageThreshold().toArray();
            for (int r = 0; r < values.length; r++) {
                if (!Double.isInfinite(values[r])) {
                    threshold.put(ResourceType.at(r).key(), values[r]);
                }
            }
        }
        if (operation.finalMessage() != null) {
            node.put("message", operation.finalMessage());
        }
        ObjectNode trees = node.putObject("trees");
        ArrayNode alerts = node.putArray("alerts");
        for (Map.Entry<String, String> placed : operation.poolByTree().entrySet()) {
            String tree = placed.getKey();
            ObjectNode inTree = trees.putObject(tree);
            inTree.put("pool", placed.getValue());
            String tagFilter = operation.spec().optionsFor(tree).schedulingTagFilter();
            if (tagFilter != null && !tagFilter.isEmpty()) {
                inTree.put("scheduling_tag_filter", tagFilter);
            }
            inTree.put("running", operation.runsIn(tree));
            inTree.set("usage", resources(operation.usageIn(tree)));
            inTree.set("demand", resources(operation.usageIn(tree).plus(operation.pendingResources())));
            PendingReason pending = cluster.registry().pendingReason(operation.id(), tree);
            if (pending != null) {
                inTree.set("pending_reason", pendingReason(pending));
                ObjectNode alert = alerts.addObject();
                alert.put("code", "operation_pending");
                alert.put("message", pending.message());
            }
            ElementShares shares = shares(cluster, tree, operation.id());
            if (shares != null) {
                inTree.set("shares", parse(ResultJson.elementJson(shares)));
                StarvationStatus starving = cluster.starving(tree).getOrDefault(operation.id(), StarvationStatus.NON_STARVING);
                inTree.put("starvation", lower(starving));
            }
        }
        return node;
    }

    ObjectNode pendingReason(PendingReason reason) {
        ObjectNode node = json.createObjectNode();
        node.put("code", "max_running_operation_count");
        node.put("tree", reason.tree());
        node.put("pool", reason.pool());
        node.put("limit", reason.limit());
        node.put("queue_position", reason.position());
        node.put("message", reason.message());
        return node;
    }

    ObjectNode progress(Operation operation) {
        ObjectNode node = json.createObjectNode();
        node.put("total", operation.spec().jobCount());
        node.put("pending", operation.pendingJobCount());
        node.put("running", operation.runningJobCount());
        node.put("completed", operation.completedJobCount());
        node.put("failed", operation.failedJobCount());
        node.put("aborted", operation.abortedJobCount());
        return node;
    }

    ObjectNode job(Job job) {
        ObjectNode node = json.createObjectNode();
        node.put("id", job.id());
        node.put("operation_id", job.operationId());
        node.put("task", job.task().name());
        node.put("index", job.index());
        node.put("attempt", job.attempt());
        node.put("state", lower(job.state()));
        node.put("node", job.nodeId());
        String address = addresses.of(job.nodeId());
        if (address != null) {
            node.put("node_address", address);
        }
        node.put("tree", job.tree());
        node.set("resources", resources(job.resources()));
        node.put("started_at", time(job.startTime()));
        if (job.finishTime() != null) {
            node.put("finished_at", time(job.finishTime()));
        }
        if (job.endReason() != null) {
            node.put("reason", lower(job.endReason()));
        }
        if (job.message() != null) {
            node.put("message", job.message());
        }
        return node;
    }

    ObjectNode pool(Cluster cluster, String tree, ElementShares shares) {
        ObjectNode node = (ObjectNode) parse(ResultJson.elementJson(shares));
        node.put("name", shares.id());
        PoolOperationCounts counts = cluster.registry().counts(tree).counts(shares.id());
        ObjectNode operations = node.putObject("operations");
        operations.put("total", counts.operationCount());
        operations.put("running", counts.runningOperationCount());
        operations.put("lightweight_running", counts.lightweightRunningOperationCount());
        operations.put("pending", counts.pendingOperationCount());
        operations.put("max_total", counts.maxOperationCount());
        operations.put("max_running", counts.maxRunningOperationCount());
        node.put("starvation", lower(cluster.starving(tree).getOrDefault(shares.id(), StarvationStatus.NON_STARVING)));
        node.put("ephemeral", cluster.registry().pools(tree).isEphemeral(shares.id()));
        TreePools pools = cluster.registry().pools(tree);
        PoolConfig config = pools.contains(shares.id()) ? pools.configOf(shares.id()) : null;
        if (config != null) {
            node.put("mode", lower(config.mode()));
            node.set("strong_guarantee_resources", partial(config.strongGuaranteeResources()));
            node.set("resource_limits", partial(config.resourceLimits()));
            if (!config.schedulingTagFilter().isEmpty()) {
                node.put("scheduling_tag_filter", config.schedulingTagFilter());
            }
            if (config.integralGuarantees() != null) {
                IntegralGuaranteesConfig integral = config.integralGuarantees();
                node.put("integral_guarantee_type", lower(integral.guaranteeType()));
                if (!integral.resourceFlow().isEmpty()) {
                    node.set("resource_flow", partial(integral.resourceFlow()));
                }
                if (!integral.burstGuaranteeResources().isEmpty()) {
                    node.set("burst_guarantee_resources", partial(integral.burstGuaranteeResources()));
                }
            }
        }
        return node;
    }

    String nodeAddress(String nodeId) {
        return addresses.of(nodeId);
    }

    /** Configured resources: only the ones set. */
    ObjectNode partial(PartialResources resources) {
        ObjectNode node = json.createObjectNode();
        if (resources != null) {
            resources.values().forEach((type, value) -> node.put(type.key(), value));
        }
        return node;
    }

    ObjectNode node(Node node) {
        ObjectNode out = json.createObjectNode();
        out.put("id", node.id());
        out.put("state", lower(node.state()));
        out.put("tree", node.tree());
        String address = addresses.of(node.id());
        if (address != null) {
            out.put("address", address);
        }
        if (node.treeProblem() != null) {
            out.put("tree_problem", node.treeProblem());
        }
        out.set("tags", json.valueToTree(new TreeSet<>(node.tags())));
        out.set("resource_limits", resources(node.limits()));
        out.set("resource_usage", resources(node.usage()));
        out.put("jobs", node.jobs().size());
        out.put("last_heartbeat", time(node.lastHeartbeat()));
        return out;
    }

    static ElementShares shares(Cluster cluster, String tree, String id) {
        FairShareResult result = cluster.fairShare(tree);
        return result == null ? null : result.elements().get(id);
    }

    JsonNode parse(String text) {
        try {
            return json.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
