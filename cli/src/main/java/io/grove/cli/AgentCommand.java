package io.grove.cli;

import io.grove.agent.AgentMain;
import io.grove.agent.AgentSettings;
import io.grove.agent.MachineResources;
import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.config.BrokerConfigLoader;
import io.grove.agent.config.BrokerConfigWriter;
import io.grove.agent.gpu.GpuSettings;
import io.grove.agent.image.ImageSettings;
import io.grove.agent.job.CpuLimit;
import io.grove.agent.job.JobNetwork;
import io.grove.agent.job.JobPolicy;
import io.grove.agent.job.JobUsers;
import io.grove.config.LoadResult;
import io.grove.config.yaml.Durations;
import io.grove.core.node.NodeTopology;
import io.grove.core.resource.ResourceAmounts;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.http.Secrets;
import io.grove.protocol.Tls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code grove agent}: the node agent. */
@Command(
        name = "agent",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the node agent of one exec node.",
            "",
            "It heartbeats to the scheduler, runs the jobs it is given as "
                    + "process trees in sandboxes, kills jobs over their memory, and runs the node's Resource Broker.",
            "",
            "CPU and memory are detected; flags override them. Jobs still running from a previous run of the agent "
                    + "are killed at start and reported aborted. Stop with SIGTERM or Ctrl-C (jobs are killed).",
            "",
            "Example: grove agent --scheduler 10.0.0.1:7077 --tags ssd,gpu --gpu 4 --work-dir /var/lib/grove-agent"})
final class AgentCommand implements Callable<Integer> {

    @Option(names = "--scheduler", defaultValue = "127.0.0.1:7077", paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "the scheduler's node endpoint; for a high-availability group all of them, tried in turn "
                    + "(a standby names the leader, which is tried next) (default: ${DEFAULT-VALUE})")
    String scheduler;

    @Option(names = "--work-dir", defaultValue = "grove-agent", paramLabel = "DIR",
            description = "sandboxes, logs and the node id (default: ${DEFAULT-VALUE})")
    Path workDir;

    @Option(names = "--node-id", paramLabel = "ID", description = "the node's id (default: kept in WORK/node-id, else HOST-xxxxxx)")
    String nodeId;

    @Option(names = "--tags", split = ",", paramLabel = "TAG", description = "the node's tags, e.g. ssd,gpu")
    List<String> tags = List.of();

    @Option(names = "--topology", paramLabel = "LEVEL=DOMAIN,...",
            description = "where the node sits in the network, widest level first, e.g. block=b1,rack=r07")
    String topology;

    @Option(names = "--topology-file", paramLabel = "FILE",
            description = "the same from a file (one level=domain a line, or commas; # comments), for provisioning tools")
    Path topologyFile;

    @Option(names = "--cpu", paramLabel = "N", description = "CPUs offered (default: detected)")
    Double cpu;

    @Option(names = "--memory", paramLabel = "SIZE", description = "memory offered, e.g. 64Gi (default: detected)")
    String memory;

    @Option(names = "--gpu", defaultValue = "0", paramLabel = "N",
            description = "GPUs declared by hand (0..N-1, device minors 0..N-1); 0 finds them with --nvidia-smi "
                    + "(default: ${DEFAULT-VALUE})")
    double gpu;

    @Option(names = "--nvidia-smi", defaultValue = "/usr/bin/nvidia-smi", paramLabel = "PATH",
            description = "nvidia-smi, by absolute path, to find the node's GPUs (index, UUID, model, memory, minor); "
                    + "their models become node tags gpu_model:... (default: ${DEFAULT-VALUE})")
    Path nvidiaSmi;

    @Option(names = "--gpu-check", paramLabel = "PROGRAM",
            description = "a program, by absolute path, run before each GPU job with the job's devices in "
                    + "CUDA_VISIBLE_DEVICES; if it fails, those GPUs are taken out of service")
    Path gpuCheck;

    @Option(names = "--gpu-check-timeout", defaultValue = "60s", paramLabel = "DURATION", description = "how long the GPU check may take "
            + "(default: ${DEFAULT-VALUE})")
    String gpuCheckTimeout;

    @Option(names = "--control-plane", split = ",", paramLabel = "HOST:PORT",
            description = "more addresses no job may reach, besides the schedulers' node ports and this agent's own "
                    + "ports: ZooKeeper's servers, the accounting database (nftables, as root)")
    List<String> controlPlane = new ArrayList<>();

    @Option(names = "--no-job-firewall", description = "let jobs reach the control plane: the schedulers' node ports, "
            + "the --control-plane addresses and this agent's ports (closed to the job uids by default, as root)")
    boolean noJobFirewall;

    @Option(names = "--no-images", description = "run no jobs in container images, even with crun, skopeo and umoci installed")
    boolean noImages;

    @Option(names = "--image-cache-size", defaultValue = "20Gi", paramLabel = "SIZE", description = "the most disk the node's cache "
            + "of images holds; the least recently used go first, never one in use (default: ${DEFAULT-VALUE})")
    String imageCacheSize;

    @Option(names = "--registry-auth-file", paramLabel = "PATH", description = "the node's registry credentials, a Docker-style "
            + "auth.json by absolute path, root's and 0600 (default: pull without credentials)")
    Path registryAuthFile;

    @Option(names = "--insecure-registry", paramLabel = "HOST[:PORT]", description = "a registry reached over plain HTTP or "
            + "without checking its certificate (repeatable)")
    List<String> insecureRegistries = new ArrayList<>();

    @Option(names = "--image-failure-memory", defaultValue = "60s", paramLabel = "DURATION", description = "how long a reference "
            + "whose pull failed fails new jobs at once instead of being pulled again (default: ${DEFAULT-VALUE})")
    String imageFailureMemory;

    @Option(names = "--oci-runtime", paramLabel = "PATH", description = "the OCI runtime, by absolute path (default: /usr/bin/crun)")
    Path ociRuntime;

    @Option(names = "--network", defaultValue = "0", paramLabel = "N", description = "network units offered (default: ${DEFAULT-VALUE})")
    double network;

    @Option(names = "--user-slots", paramLabel = "N", description = "jobs at once at most (default: the CPUs, at least 1)")
    Integer userSlots;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "address of the HTTP endpoint (default: ${DEFAULT-VALUE})")
    String bind;

    @Option(names = "--http-port", defaultValue = "7078", description = "HTTP endpoint: logs, broker view, metrics (default: ${DEFAULT-VALUE})")
    int httpPort;

    @Option(names = "--advertise-host", paramLabel = "HOST", description = "host in the address given to the scheduler (default: the bind address)")
    String advertiseHost;

    @Option(names = "--broker-port", defaultValue = "7079",
            description = "the broker's loopback port; -1 for none (default: ${DEFAULT-VALUE})")
    int brokerPort;

    @Option(names = "--broker-bind", defaultValue = "127.0.0.1",
            description = "address of the broker's API; it has no authentication, keep it local (default: ${DEFAULT-VALUE})")
    String brokerBind;

    @Option(names = "--broker-config", paramLabel = "FILE", description = "broker YAML, or a legacy Compaction Broker one (default: built in, as config/broker.yaml)")
    Path brokerConfig;

    @Option(names = "--broker-reserve", defaultValue = "cpu=0,memory=64Mi", paramLabel = "RES",
            description = "CPU and memory kept for broker tasks, never offered to the scheduler (default: ${DEFAULT-VALUE})")
    String brokerReserve;

    @Option(names = "--log-retention", defaultValue = "24h", description = "how long finished jobs' logs are kept (default: ${DEFAULT-VALUE})")
    String logRetention;

    @Option(names = "--memory-sample-interval", defaultValue = "1s", description = "how often job memory is measured (default: ${DEFAULT-VALUE})")
    String sampleInterval;

    @Option(names = "--node-token-file", paramLabel = "FILE", description = "the cluster's node token, if the scheduler wants one")
    Path nodeTokenFile;

    @Option(names = "--job-uids", paramLabel = "LOW-HIGH",
            description = "when the agent runs as root: the uids jobs run as, one of its own for each running job, with no "
                    + "passwd entry needed (default: " + JobUsers.DEFAULT_UIDS + "); no account may use them")
    String jobUids;

    @Option(names = "--job-users", split = ",", paramLabel = "USER",
            description = "when the agent runs as root: named unprivileged users jobs run as instead of --job-uids; jobs "
                    + "running as the same user at once can see each other (the agent warns); jobs never run as root")
    List<String> jobUsers = List.of();

    @Option(names = "--cpu-limit", defaultValue = "quota", paramLabel = "MODE",
            description = "how a job is held to the cpu it ordered: quota (at most its order, as the reference), weight "
                    + "(a share in proportion to its order; idle cores may be used) or off (default: ${DEFAULT-VALUE})")
    String cpuLimit;

    @Option(names = "--job-pids-limit", defaultValue = "4096", paramLabel = "N",
            description = "at most this many processes and threads per job; 0 for no limit (default: ${DEFAULT-VALUE})")
    long jobPidsLimit;

    @Option(names = "--job-default-memory", defaultValue = "1Gi", paramLabel = "SIZE",
            description = "the memory limit of a job that ordered no memory (default: ${DEFAULT-VALUE})")
    String jobDefaultMemory;

    @Option(names = "--job-default-disk", defaultValue = "10Gi", paramLabel = "SIZE",
            description = "the disk limit of a job that ordered no disk_space: its sandbox, private /tmp and logs "
                    + "(default: ${DEFAULT-VALUE})")
    String jobDefaultDisk;

    @Option(names = "--disk-reserve", defaultValue = "64Mi", paramLabel = "SIZE",
            description = "disk of the work directory kept for the agent's own results, logs and records, never offered "
                    + "to jobs: a job that fills the disk cannot stop the agent from writing them (default: ${DEFAULT-VALUE})")
    String diskReserve;

    @Option(names = "--no-private-tmp",
            description = "when the agent runs as root, let jobs share the node's /tmp, /var/tmp, /run/lock, /dev/shm and "
                    + "see every process in /proc, instead of each job having its own (not recommended)")
    boolean noPrivateTmp;

    @Option(names = "--tls-cert", paramLabel = "PEM", description = "this node's certificate, for a scheduler with mutual TLS")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "its private key (PKCS#8)")
    Path tlsKey;

    @Option(names = "--tls-ca", paramLabel = "PEM", description = "the CA the scheduler's certificate is signed by")
    Path tlsCa;

    @Option(names = "--show-broker-config", description = "print the broker configuration in effect (a legacy one converted) and exit")
    boolean showBrokerConfig;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        AgentSettings settings;
        try {
            BrokerConfig broker = BrokerConfig.builtIn();
            if (brokerConfig != null) {
                LoadResult<BrokerConfig> loaded = BrokerConfigLoader.load(brokerConfig);
                if (!loaded.ok()) {
                    spec.commandLine().getErr().println(loaded.describe());
                    spec.commandLine().getErr().flush();
                    return 1;
                }
                broker = loaded.value();
            }
            if (showBrokerConfig) {
                spec.commandLine().getOut().print(BrokerConfigWriter.toYaml(broker));
                spec.commandLine().getOut().flush();
                return 0;
            }
            settings = settings(broker);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("grove agent: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return 2;
        }
        try {
            AgentMain.run(settings);
            return 0;
        } catch (IOException e) {
            spec.commandLine().getErr().println("grove agent: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return 1;
        }
    }

    private AgentSettings settings(BrokerConfig broker) {
        List<String> schedulers = List.of(scheduler.split(","));
        for (String address : schedulers) {
            int colon = address.lastIndexOf(':');
            if (colon <= 0 || !address.substring(colon + 1).matches("[0-9]{1,5}")) {
                throw new IllegalArgumentException("--scheduler must be HOST:PORT[,HOST:PORT...], got '" + scheduler + "'");
            }
        }
        String first = schedulers.get(0);
        int colon = first.lastIndexOf(':');
        int port = Integer.parseInt(first.substring(colon + 1));
        Resources detected = MachineResources.detect();
        double cpus = cpu != null ? cpu : detected.cpu();
        double bytes = memory != null ? ResourceAmounts.parse(ResourceType.MEMORY, memory) : detected.memory();
        double slots = userSlots != null ? userSlots : Math.max(1, Math.floor(cpus));
        Resources resources = new Resources(slots, cpus, gpu, bytes, network);
        return new AgentSettings(first.substring(0, colon), port, nodeId, tags, resources, workDir, bind, httpPort,
                advertiseHost, brokerPort, broker, reserve(brokerReserve), Durations.parse(logRetention),
                Durations.parse(sampleInterval), Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(10),
                nodeToken(), jobUsers, jobUids, tlsCa == null && tlsCert == null ? null : new Tls(tlsCert, tlsKey, tlsCa),
                brokerBind, schedulers.subList(1, schedulers.size()), jobPolicy(),
                new GpuSettings(nvidiaSmi, null, gpuCheck, Durations.parse(gpuCheckTimeout)), imageSettings(),
                new JobNetwork(!noJobFirewall, controlPlane), topology());
    }

    /** {@code --topology} or {@code --topology-file} (not both), read and checked. */
    private NodeTopology topology() {
        if (topology != null && topologyFile != null) {
            throw new IllegalArgumentException("give --topology or --topology-file, not both");
        }
        try {
            if (topologyFile != null) {
                if (Files.size(topologyFile) > 64 * 1024) {
                    throw new IllegalArgumentException("--topology-file " + topologyFile + " is larger than 64 KiB");
                }
                return NodeTopology.parse(Files.readString(topologyFile));
            }
            return NodeTopology.parse(topology);
        } catch (IOException e) {
            throw new IllegalArgumentException("--topology-file: cannot read " + topologyFile + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException((topologyFile != null ? "--topology-file " + topologyFile : "--topology")
                    + ": " + e.getMessage());
        }
    }

    private ImageSettings imageSettings() {
        return new ImageSettings(!noImages, bytes("--image-cache-size", imageCacheSize), registryAuthFile,
                insecureRegistries, Durations.parse(imageFailureMemory), ociRuntime);
    }

    private JobPolicy jobPolicy() {
        if (jobPidsLimit < 0) {
            throw new IllegalArgumentException("--job-pids-limit must not be negative, got " + jobPidsLimit);
        }
        long memoryBytes = bytes("--job-default-memory", jobDefaultMemory);
        if (memoryBytes <= 0) {
            throw new IllegalArgumentException("--job-default-memory must be above 0, got '" + jobDefaultMemory + "'");
        }
        return new JobPolicy(CpuLimit.parse(cpuLimit), jobPidsLimit, memoryBytes, !noPrivateTmp,
                bytes("--job-default-disk", jobDefaultDisk), bytes("--disk-reserve", diskReserve));
    }

    /** A size given to a flag ({@code 10Gi}), in bytes. */
    private static long bytes(String flag, String value) {
        try {
            return Math.round(ResourceAmounts.parse(ResourceType.MEMORY, value));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage());
        }
    }

    private String nodeToken() {
        if (nodeTokenFile == null) {
            return null;
        }
        try {
            return Secrets.read(nodeTokenFile);
        } catch (IOException e) {
            throw new IllegalArgumentException("--node-token-file: " + e.getMessage());
        }
    }

    static BrokerResources reserve(String text) {
        long cpuMillis = 0;
        long bytes = 0;
        for (String part : text.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("--broker-reserve takes cpu=N,memory=SIZE, got '" + text + "'");
            }
            switch (kv[0].trim()) {
                case "cpu" -> cpuMillis = Math.round(ResourceAmounts.parse(ResourceType.CPU, kv[1].trim()) * 1000);
                case "memory" -> bytes = Math.round(ResourceAmounts.parse(ResourceType.MEMORY, kv[1].trim()));
                default -> throw new IllegalArgumentException("--broker-reserve: unknown resource '" + kv[0] + "' (cpu, memory)");
            }
        }
        return new BrokerResources(cpuMillis, bytes);
    }
}
