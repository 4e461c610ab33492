package io.grove.agent.job;

import io.grove.agent.gpu.Gpu;
import io.grove.agent.gpu.NodeGpus;
import io.grove.agent.image.ImageConfig;
import io.grove.agent.image.NodeImages;
import io.grove.agent.image.OciBundle;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a job is contained on this node, from its start to the last of its processes: a user of
 * its own (and whatever a previous holder of the uid left killed), its sandbox, its environment,
 * its cgroup, its private directories; at its end, its process group, its cgroup and its uid
 * emptied, and the uid given back once its sandbox is removed.
 */
public final class JobContainment {

    private final String nodeId;
    private final WorkDir workDir;
    private final JobRunner runner;
    private final JobUsers users;
    private final JobCgroups cgroups;
    private final JobPolicy policy;
    private final NodeGpus gpus;
    /** The containers of image jobs that run. */
    private final Map<String, JobLaunch.Container> containers = new HashMap<>();
    /**
     * Uids of their own that this agent emptied at their last job's end (every process of theirs
     * killed) and gave to no job since: nothing can run as them, so a job given one starts without
     * another kill (a fork and two execs on the start's path).
     */
    private final Set<Integer> emptied = ConcurrentHashMap.newKeySet();
    /** Whether this run of the agent set up its jobs' devices ({@link #ensureNodeDevices}). */
    private boolean nodeDevicesReady;
    /** Whether the template's nodes cannot be opened where they lie ({@code nodev}): each job's /dev is copied. */
    private boolean copyDev;

    public JobContainment(String nodeId, WorkDir workDir, JobRunner runner, JobUsers users, JobCgroups cgroups,
            JobPolicy policy, NodeGpus gpus) {
        this.policy = policy;
        this.gpus = gpus;
        this.nodeId = nodeId;
        this.workDir = workDir;
        this.runner = runner;
        this.users = users;
        this.cgroups = cgroups;
    }

    /**
     * Starts a job's process; on a failure nothing of the job is left (its uid and cgroup are given
     * back).
     *
     * @throws IOException (or a runtime exception for an invalid environment) if it cannot start
     */
    public JobRunner.Handle start(JobSpec spec) throws IOException {
        return start(spec, null);
    }

    /** An image job's image, as the node's cache holds it. */
    public record Image(ImageConfig config, Path rootfs, NodeImages images) {
    }

    /**
     * Starts a job's process, in a container of {@code image} when it has one; on a failure
     * nothing of the job is left.
     *
     * @throws IOException (or a runtime exception for an invalid environment) if it cannot start
     */
    public JobRunner.Handle start(JobSpec spec, Image image) throws IOException {
        try {
            JobUsers.User user = users.assign(spec.jobId());
            if (user != null && users.exclusive() && !emptied.remove(user.uid())) {
                // whatever a crashed run may have left with this uid goes before the uid is reused
                runner.killUser(user);
            }
            workDir.prepare(spec.jobId(), user);
            Path sandbox = workDir.sandbox(spec.jobId());
            Path dir = workDir.jobDir(spec.jobId());
            List<Gpu> devices = gpus.of(spec.jobId());
            ensureNodeDevices();
            List<Path> cgroup = cgroups.create(spec.jobId(),
                    policy.limitsFor(spec, JobDevices.denyRules(gpus.all(), devices)));
            Map<String, String> env = JobEnvironment.of(spec, nodeId, sandbox, user, devices);
            if (image != null) {
                return runner.start(new JobLaunch(spec, sandbox, workDir.launchScript(spec.jobId()), dir.resolve("stdout"),
                        dir.resolve("stderr"), env, user, cgroup, null, container(spec, image, user, env, devices),
                        policy.diskOf(spec)));
            }
            List<String> gpuNodes = JobDevices.gpuNames(devices);
            JobNamespace namespace = user != null && policy.privateDirs()
                    ? new JobNamespace(sandbox, workDir.launchScript(spec.jobId()).getParent(), policy.memoryOf(spec),
                            dir.resolve("mounts"), copyDev ? workDir.devTemplate()
                            : JobDevices.link(workDir.devTemplate(), dir.resolve("dev-root"), gpuNodes), copyDev, gpuNodes)
                    : null;
            return runner.start(new JobLaunch(spec, sandbox, workDir.launchScript(spec.jobId()), dir.resolve("stdout"),
                    dir.resolve("stderr"), env, user, cgroup, namespace, policy.diskOf(spec)));
        } catch (IOException | RuntimeException e) {
            users.release(spec.jobId());
            cgroups.killAndRemove(spec.jobId());
            gpus.release(spec.jobId());
            containers.remove(spec.jobId());
            throw e;
        }
    }

    /**
     * Once per run of the agent, before its first job: the devices allow-list of the jobs' cgroup
     * and, where jobs get namespaces, the device template their {@code /dev} comes from.
     */
    private synchronized void ensureNodeDevices() throws IOException {
        if (!nodeDevicesReady) {
            cgroups.allowDevices(JobDevices.allowRules(gpus.all()));
            if (users.switching() && policy.privateDirs()) {
                JobDevices.template(SystemPrograms.find(true), workDir.devTemplate(), gpus.all());
                copyDev = !JobDevices.opensNodes(workDir.devTemplate());
            }
            nodeDevicesReady = true;
        }
    }

    /** Writes an image job's bundle: what it runs, as whom, with what, where. */
    private JobLaunch.Container container(JobSpec spec, Image image, JobUsers.User user, Map<String, String> env,
            List<Gpu> devices) throws IOException {
        if (user == null) {
            throw new IOException("a job in a container image needs a user of its own (the agent must run as root)");
        }
        List<String> args = OciBundle.args(image.config(), image.rootfs(), spec.command(), spec.image());
        Path bundle = workDir.jobDir(spec.jobId()).resolve("bundle");
        OciBundle.write(bundle, new OciBundle.Spec(args,
                OciBundle.environment(image.config(), env, spec.env()), user.uid(), user.gid(),
                image.rootfs(), workDir.sandbox(spec.jobId()), workDir.sandboxesRoot(), policy.memoryOf(spec), devices,
                policy.diskOf(spec)));
        JobLaunch.Container container = new JobLaunch.Container(NodeImages.containerId(spec.jobId()),
                bundle, image.images());
        containers.put(spec.jobId(), container);
        return container;
    }

    /**
     * A job's main process exited: whatever it left in its process group, its cgroup and (with a
     * uid of its own) under its uid is killed, and the uid is given back.
     *
     * @return whether the kernel killed a process of the job for its memory
     */
    public boolean ended(String jobId, JobRunner.Handle handle) {
        handle.kill();
        boolean outOfMemory = cgroups.oomKilled(jobId);
        cgroups.killAndRemove(jobId);
        JobLaunch.Container container = containers.remove(jobId);
        if (container != null) {
            runner.removeContainer(container);
        }
        gpus.release(jobId);
        JobUsers.User user = users.of(jobId);
        if (user != null && users.exclusive()) {
            runner.killUser(user);
            emptied.add(user.uid());
        } else {
            // a shared user is given back now; a uid of its own only once the job's files are gone
            users.release(jobId);
        }
        return outOfMemory;
    }

    /** A job's directory and sandbox were removed: nothing of it is left, its uid may be given again. */
    public void cleanedUp(String jobId) {
        users.release(jobId);
    }

    /** After an agent restart: the uids of its jobs whose files remain stay theirs; how many. */
    public int adoptLeases() throws IOException {
        return users.adoptLeases();
    }

    /**
     * As the agent starts: frees the uids of jobs of agents that are gone with their work
     * directories. Every process of such a uid is killed first, then its job's sandbox (kept apart,
     * under {@link WorkDir#SANDBOXES}) is removed without following links; how many were freed.
     */
    public int sweepOrphanLeases() throws IOException {
        return users.sweepOrphanLeases((user, owner, jobId) -> {
            runner.killUser(user);
            Path sandboxes = WorkDir.separateSandboxes(owner);
            Trees.delete(sandboxes.resolve(jobId));
            try {
                Files.deleteIfExists(sandboxes);
            } catch (DirectoryNotEmptyException othersLeft) {
                // other jobs of that agent still have leases to sweep
            }
        });
    }

    /** After an agent restart: kills a job's process group left from the previous run. */
    public void killLeftover(long processGroup) {
        runner.killGroup(processGroup);
    }

    /** After an agent restart: kills what is left in the cgroups of the previous run; how many had processes. */
    public int sweepCgroups() {
        return cgroups.sweep();
    }

    /** Whether the kernel holds jobs to their memory (cgroups), so the memory sampler only measures. */
    public boolean kernelLimitsMemory() {
        return cgroups.enabled();
    }

    /** How much CPU a running job used and how long it was throttled, where the kernel counts it. */
    public Optional<CpuUsage> cpuUsage(String jobId) {
        return cgroups.cpuUsage(jobId);
    }

    /** Whether a job's cgroup refused it a process (its process limit was reached). */
    public boolean pidsLimitReached(String jobId) {
        return cgroups.pidsLimitReached(jobId);
    }

    /** Why jobs cannot be contained any more (their cgroups were removed under the agent), or {@code null}. */
    public String cgroupsGone() {
        return cgroups.gone();
    }

    /** The node's GPUs and who holds them. */
    public NodeGpus gpus() {
        return gpus;
    }

    public JobPolicy policy() {
        return policy;
    }

    public JobUsers users() {
        return users;
    }
}
