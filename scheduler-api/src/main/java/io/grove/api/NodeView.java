package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/nodes}: a node as the scheduler sees it.
 *
 * @param tree its pool tree; {@code null} with {@code treeProblem} when it matches none or several
 * @param address its agent's HTTP endpoint, from its handshake
 * @param diskSpaceFree bytes it has for new jobs' disk orders; absent when it does not say
 * @param unschedulable why it cannot start jobs now; absent when it can
 * @param gpusOutOfService its GPUs out of service, each with why (absent for none)
 * @param noImages why it runs no jobs in container images (no OCI runtime, no skopeo); absent when it runs them
 * @param topology where it sits in the network, as it says: level to domain, widest first (absent for none)
 * @param topologyPath its path in its tree's {@code topology_levels}, {@code block=b1/rack=r07} (absent when the
 *     tree knows no levels)
 * @param topologyMissing the tree's levels it gives no domain for: it is in no domain of those (absent for none)
 * @param reservedFor the starving gang's reservation that holds it (absent for none)
 * @param drained its drain by an administrator (absent when it is not drained): no new jobs start on it
 */
public record NodeView(String id, String state, @JsonInclude(JsonInclude.Include.ALWAYS) String tree, String address,
        String treeProblem, List<String> tags, Amounts resourceLimits, Amounts resourceUsage, int jobs,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Timestamp String lastHeartbeat, Long diskSpaceFree, String unschedulable,
        List<String> gpusOutOfService, String noImages,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> topology, String topologyPath,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> topologyMissing, ReservationView reservedFor,
        Drained drained) {

    /**
     * A node's drain.
     *
     * @param reason why, as the administrator said (absent when none was given)
     * @param now whether its running jobs are stopped too
     * @param by who drained it
     * @param since when
     */
    public record Drained(String reason, boolean now, String by, @Timestamp String since) {
    }
}
