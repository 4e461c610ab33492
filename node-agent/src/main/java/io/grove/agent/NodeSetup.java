package io.grove.agent;

import io.grove.agent.gpu.Gpu;
import io.grove.agent.gpu.GpuDiscovery;
import io.grove.agent.job.JobCgroups;
import io.grove.agent.job.JobNamespace;
import io.grove.agent.job.JobPolicy;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.SystemPrograms;
import io.grove.agent.job.WorkDir;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this machine lets the agent do with its jobs, found at start and said in its log: cgroups,
 * mount namespaces for private directories, GPUs (and the node tags of their models).
 *
 * @param cgroups a cgroup per job, or none with why
 * @param policy the agent's policy as the machine allows it
 * @param gpus the node's GPUs: declared, or found with {@code nvidia-smi}
 * @param gpusFound whether {@code nvidia-smi} found them (then it is asked about them now and then)
 * @param tags the node's tags: as given, and those of its GPUs' models
 */
record NodeSetup(JobCgroups cgroups, JobPolicy policy, List<Gpu> gpus, boolean gpusFound, List<String> tags) {

    private static final Logger LOG = LoggerFactory.getLogger(NodeSetup.class);

    static NodeSetup of(AgentSettings settings, JobUsers users, WorkDir workDir) throws IOException {
        JobCgroups cgroups = cgroups(settings);
        int declared = (int) settings.resources().gpu();
        List<Gpu> gpus = declared > 0 ? GpuDiscovery.declared(declared)
                : GpuDiscovery.discover(settings.gpus().nvidiaSmi(), settings.gpus().driverInfo());
        JobPolicy policy = privateDirsIfPossible(settings.jobPolicy(), users, workDir);
        boolean found = declared == 0 && !gpus.isEmpty();
        if (!gpus.isEmpty()) {
            LOG.info("GPUs {}: {}", declared > 0 ? "declared" : "found by " + settings.gpus().nvidiaSmi(),
                    gpus.stream().map(g -> g + " " + g.model() + ", minor " + g.minor()).toList());
        }
        List<String> tags = new ArrayList<>(settings.tags());
        if (found) {
            // the models as tags, for nodes_filter and scheduling tag filters: a pool of A100s, a pool of H100s
            gpus.stream().flatMap(gpu -> Stream.of("gpu", Gpu.modelTag(gpu.model()))).distinct()
                    .filter(tag -> !tags.contains(tag)).forEach(tags::add);
        }
        return new NodeSetup(cgroups, policy, gpus, found, List.copyOf(tags));
    }

    /**
     * The policy as the machine allows it: jobs of other users get private directories only where
     * the agent can make mount namespaces (not in a container without {@code CAP_SYS_ADMIN}); it
     * says so when it cannot.
     */
    private static JobPolicy privateDirsIfPossible(JobPolicy policy, JobUsers users, WorkDir workDir) {
        if (!policy.privateDirs() || !users.switching()) {
            return policy;
        }
        String why;
        try {
            why = JobNamespace.probe(SystemPrograms.find(true), workDir.root().resolve("namespace-probe"));
        } catch (IOException e) {
            why = e.getMessage();
        }
        if (why == null) {
            return policy;
        }
        LOG.warn("jobs cannot have namespaces of their own here (a private /dev, /tmp, /var/tmp, /run/lock, /dev/shm, "
                + "/proc and SysV IPC: {}); they share the node's", why);
        return policy.withoutPrivateDirs();
    }

    /** A cgroup per job where the machine lets the agent make them (see {@link JobCgroups}). */
    private static JobCgroups cgroups(AgentSettings settings) {
        JobCgroups cgroups = !JobUsers.processIsRoot()
                ? JobCgroups.none("the agent is not root")
                : JobCgroups.detect("grove-jobs-" + Integer.toHexString(
                        settings.workDir().toAbsolutePath().normalize().toString().hashCode()));
        LOG.info("jobs are contained by {}; {}", cgroups.describe(), settings.jobPolicy().describe());
        if (!JobUsers.processIsRoot()) {
            LOG.warn("the agent is not root, so these limits are not enforced: a CPU quota, a process limit and device "
                    + "isolation per job (no cgroups), a private /tmp, /dev/shm and /proc per job, a uid per job; and jobs "
                    + "run as the agent's user, so they can read the broker's tokens. Memory and disk orders are still "
                    + "enforced by sampling");
        }
        return cgroups;
    }
}
