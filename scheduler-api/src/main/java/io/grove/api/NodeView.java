package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code GET /api/v1/nodes}: a node as the scheduler sees it.
 *
 * @param tree its pool tree; {@code null} with {@code treeProblem} when it matches none or several
 * @param address its agent's HTTP endpoint, from its handshake
 * @param diskSpaceFree bytes it has for new jobs' disk orders; absent when it does not say
 * @param unschedulable why it cannot start jobs now; absent when it can
 * @param gpusOutOfService its GPUs out of service, each with why (absent for none)
 * @param noImages why it runs no jobs in container images (no OCI runtime, no skopeo); absent when it runs them
 */
public record NodeView(String id, String state, @JsonInclude(JsonInclude.Include.ALWAYS) String tree, String address,
        String treeProblem, List<String> tags, Amounts resourceLimits, Amounts resourceUsage, int jobs,
        @JsonInclude(JsonInclude.Include.ALWAYS) String lastHeartbeat, Long diskSpaceFree, String unschedulable,
        List<String> gpusOutOfService, String noImages) {
}
