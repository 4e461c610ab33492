package io.grove.agent.job;

import java.util.List;

/**
 * What jobs may reach on the network ({@code grove agent} flags).
 *
 * @param firewall whether a root agent closes the control plane to its jobs ({@link JobFirewall};
 *     {@code --no-job-firewall} turns it off)
 * @param controlPlane more addresses no job may reach besides the schedulers' node ports and this
 *     agent's own ports: ZooKeeper's servers, the accounting database ({@code --control-plane HOST:PORT,...})
 */
public record JobNetwork(boolean firewall, List<String> controlPlane) {

    public static final JobNetwork DEFAULTS = new JobNetwork(true, List.of());

    public JobNetwork {
        controlPlane = controlPlane == null ? List.of() : List.copyOf(controlPlane);
        controlPlane.forEach(JobFirewall.Endpoint::parse);
    }
}
