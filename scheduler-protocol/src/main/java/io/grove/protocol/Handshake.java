package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.grove.core.node.NodeTopology;
import io.grove.core.resource.Resources;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The first message of a node on a connection.
 *
 * @param protocolVersion the version the node speaks ({@link Message#VERSION})
 * @param nodeId the node's stable id
 * @param address where the node's own HTTP endpoint (logs) is reached, {@code host:port}
 * @param tags the node's tags, which choose its pool tree
 * @param resourceLimits what the node offers
 * @param runningJobs jobs the node still runs (after a restart of either side)
 * @param nodeToken the cluster's node token when authentication is on, else {@code null}
 * @param finishedJobs jobs that ended while the node was not connected and whose results the
 *     scheduler has not acknowledged; the welcome acknowledges them
 * @param imageRuntime what runs jobs in container images here (such as {@code crun 1.8.1}); absent
 *     when the node runs none, and then the scheduler sends it no image job
 * @param noImages why the node runs no image jobs (no OCI runtime, no {@code skopeo}), or absent
 */
public record Handshake(int protocolVersion, String nodeId, String address, List<String> tags,
        Resources resourceLimits, List<RunningJob> runningJobs, String nodeToken, List<FinishedJob> finishedJobs,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String imageRuntime,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String noImages,
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        Map<String, String> topology)
        implements Message {

    /** A handshake of a node that gives no topology. */
    public Handshake(int protocolVersion, String nodeId, String address, List<String> tags, Resources resourceLimits,
            List<RunningJob> runningJobs, String nodeToken, List<FinishedJob> finishedJobs, String imageRuntime,
            String noImages) {
        this(protocolVersion, nodeId, address, tags, resourceLimits, runningJobs, nodeToken, finishedJobs, imageRuntime,
                noImages, Map.of());
    }

    /** A handshake without finished jobs. */
    public Handshake(int protocolVersion, String nodeId, String address, List<String> tags, Resources resourceLimits,
            List<RunningJob> runningJobs, String nodeToken) {
        this(protocolVersion, nodeId, address, tags, resourceLimits, runningJobs, nodeToken, List.of());
    }

    /** A handshake of a node that says nothing of container images. */
    public Handshake(int protocolVersion, String nodeId, String address, List<String> tags, Resources resourceLimits,
            List<RunningJob> runningJobs, String nodeToken, List<FinishedJob> finishedJobs) {
        this(protocolVersion, nodeId, address, tags, resourceLimits, runningJobs, nodeToken, finishedJobs, null, null);
    }

    /** Why a node runs no image jobs, as the scheduler takes it from this handshake; {@code null} when it runs them. */
    public String whyNoImages() {
        return imageRuntime != null ? null : noImages != null ? noImages
                : "its agent does not say it runs container images (an older agent)";
    }

    /** {@code host:port}: a name or an address (IPv6 with or without brackets), and nothing of a URL's path or query. */
    static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9_.:\\[\\]-]{1,253}:[0-9]{1,5}");

    public Handshake {
        if (protocolVersion < 1) {
            throw new IllegalArgumentException("'protocol_version' must be at least 1, got " + protocolVersion);
        }
        Checks.required(nodeId, "node_id");
        address = address == null ? "" : Checks.bounded(address, "address", Checks.MAX_ID);
        if (!address.isEmpty() && !ADDRESS.matcher(address).matches()) {
            throw new IllegalArgumentException("'address' must be host:port (a host name or an IP address, and a port), got '"
                    + Checks.printable(address, 64) + "'");
        }
        tags = Checks.tags(tags);
        Checks.bounded(nodeToken, "node_token", 4096);
        Checks.required(resourceLimits, "resource_limits");
        runningJobs = Checks.list(runningJobs);
        finishedJobs = Checks.list(finishedJobs);
        Checks.bounded(imageRuntime, "image_runtime", Checks.MAX_ID);
        Checks.bounded(noImages, "no_images", 1024);
        try {
            topology = new NodeTopology(topology).domains();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'topology': " + e.getMessage());
        }
    }

    /** Where the node sits in the network, as it says. */
    public NodeTopology where() {
        return new NodeTopology(topology);
    }

    @Override
    public String toString() {
        return "Handshake[" + nodeId + ", v" + protocolVersion + ", tags " + tags + ", limits " + resourceLimits
                + ", " + runningJobs.size() + " running jobs, " + finishedJobs.size() + " finished"
                + (topology.isEmpty() ? "" : ", at " + where()) + (nodeToken == null ? "" : ", with a token") + "]";
    }
}
