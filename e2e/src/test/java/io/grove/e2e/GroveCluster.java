package io.grove.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerNetwork;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * A scheduler and agents as containers on a user-defined Docker network, each its own host, from
 * the image under test. The scheduler's data directory, its pools file and the jobs' side effects
 * are folders of the test, so the scheduler can be replaced by a new container on the same state
 * and the test can read what the jobs did.
 */
final class GroveCluster implements AutoCloseable {

    /** Short node timeouts so that faults play out in seconds: offline after 4 s, jobs lost after 10 s. */
    static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(4);
    static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(10);

    /** The test user's bearer token and the cluster's node token (this test's own, made up here). */
    static final String USER_TOKEN = "e2e-user-token-" + Long.toHexString(System.nanoTime());
    static final String NODE_TOKEN = "e2e-node-token-" + Long.toHexString(System.nanoTime() * 31);

    final Path dir;
    final Path effects;
    final Path config;
    final Path data;
    final Network network = Network.newNetwork();
    final Map<String, GenericContainer<?>> agents = new LinkedHashMap<>();
    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();
    final String image;
    /** The scheduler the API is asked through: the only one, or the leader of a group. */
    GenericContainer<?> scheduler;
    /** A high-availability group: ZooKeeper and two schedulers; {@code null} for one scheduler. */
    GenericContainer<?> zookeeper;
    final Map<String, GenericContainer<?>> group = new LinkedHashMap<>();

    GroveCluster(Path dir, String pools, int agentCount) throws Exception {
        this(dir, pools, agentCount, false);
    }

    /**
     * With {@code ha}, a ZooKeeper container and two schedulers ({@code scheduler-1}, {@code scheduler-2})
     * coordinated by it, the agents given both; the API is asked through the leader.
     */
    GroveCluster(Path dir, String pools, int agentCount, boolean ha) throws Exception {
        this.dir = dir;
        this.image = GroveImage.ensureBuilt();
        effects = Files.createDirectories(dir.resolve("effects"));
        // the jobs run as nobody inside the agents: let them write their side effects
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        Files.setPosixFilePermissions(effects, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        config = Files.createDirectories(dir.resolve("config"));
        data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(config.resolve("pools.yaml"), pools);
        Files.writeString(config.resolve("tokens.yaml"), "tokens:\n  - {token: " + USER_TOKEN + ", user: e2e, groups: [ops]}\n");
        Files.writeString(config.resolve("node-token"), NODE_TOKEN + "\n");
        if (ha) {
            // the schedulers' identity in ZooKeeper: the group's znodes are theirs alone
            Path zkAuth = config.resolve("zk-auth");
            Files.writeString(zkAuth, "grove:" + NODE_TOKEN + "-zookeeper\n");
            Files.setPosixFilePermissions(zkAuth, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            startZooKeeper();
            for (String name : List.of("scheduler-1", "scheduler-2")) {
                GenericContainer<?> member = schedulerContainer(name, List.of("--zookeeper", "zookeeper:2181",
                        "--zookeeper-auth-file", "/etc/grove-test/zk-auth", "--zookeeper-session-timeout", "4s",
                        "--advertise", name));
                member.start();
                group.put(name, member);
            }
            awaitTrue("a leader", Duration.ofSeconds(60), () -> followLeader() != null);
        } else {
            startScheduler();
        }
        for (int i = 1; i <= agentCount; i++) {
            startAgent("agent-" + i);
        }
        awaitTrue("all agents online", Duration.ofSeconds(60), () -> onlineNodes() == agentCount);
    }

    void startScheduler() {
        scheduler = schedulerContainer("scheduler", List.of());
        scheduler.start();
    }

    private GenericContainer<?> schedulerContainer(String name, List<String> more) {
        List<String> command = new ArrayList<>(List.of("scheduler", "--config", "/etc/grove-test/pools.yaml",
                "--data-dir", "/var/lib/grove", "--bind", "0.0.0.0", "--tokens-file", "/etc/grove-test/tokens.yaml",
                "--node-token-file", "/etc/grove-test/node-token", "--heartbeat-period", "500ms",
                "--node-heartbeat-timeout", HEARTBEAT_TIMEOUT.toSeconds() + "s", "--node-registration-timeout",
                REGISTRATION_TIMEOUT.toSeconds() + "s"));
        command.addAll(more);
        GenericContainer<?> container = new GenericContainer<>(image)
                .withNetwork(network).withNetworkAliases(name).withCreateContainerCmdModifier(c -> c.withHostName(name))
                .withFileSystemBind(config.toString(), "/etc/grove-test")
                .withCommand(command.toArray(String[]::new))
                .withExposedPorts(8080)
                .waitingFor(Wait.forHttp("/healthz").forPort(8080).withStartupTimeout(Duration.ofSeconds(90)));
        // one scheduler keeps its journal in the test's folder; a group keeps its state in ZooKeeper
        return more.isEmpty() ? container.withFileSystemBind(data.toString(), "/var/lib/grove") : container;
    }

    private void startZooKeeper() throws IOException, InterruptedException {
        zookeeper = new GenericContainer<>(GroveImage.ensureZooKeeperBuilt())
                .withNetwork(network).withNetworkAliases("zookeeper")
                .withExposedPorts(2181)
                .waitingFor(Wait.forListeningPort().withStartupTimeout(Duration.ofSeconds(90)));
        zookeeper.start();
    }

    /** Points the API at the scheduler whose /healthz says it leads; returns its name, or null. */
    String followLeader() throws IOException, InterruptedException {
        for (Map.Entry<String, GenericContainer<?>> member : group.entrySet()) {
            if (!member.getValue().isRunning()) {
                continue;
            }
            URI health = URI.create("http://" + member.getValue().getHost() + ":" + member.getValue().getMappedPort(8080)
                    + "/healthz");
            try {
                JsonNode body = json.readTree(http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(5))
                        .build(), HttpResponse.BodyHandlers.ofString()).body());
                if (body.path("role").asText().equals("leader")) {
                    scheduler = member.getValue();
                    return member.getKey();
                }
            } catch (IOException e) {
                // not answering
            }
        }
        return null;
    }

    void startAgent(String name) {
        GenericContainer<?> agent = new GenericContainer<>(image)
                .withNetwork(network).withNetworkAliases(name).withCreateContainerCmdModifier(c -> c.withHostName(name))
                .withFileSystemBind(effects.toString(), "/effects")
                .withFileSystemBind(config.resolve("node-token").toString(), "/etc/grove-test/node-token",
                        org.testcontainers.containers.BindMode.READ_ONLY)
                .withCommand("agent", "--scheduler", group.isEmpty() ? "scheduler:7077"
                        : "scheduler-1:7077,scheduler-2:7077", "--node-token-file", "/etc/grove-test/node-token",
                        "--node-id", name, "--cpu", "2", "--memory", "2Gi",
                        "--bind", "0.0.0.0", "--advertise-host", name, "--work-dir", "/var/lib/grove-agent")
                .waitingFor(Wait.forLogMessage(".*ready node_id=.*", 1).withStartupTimeout(Duration.ofSeconds(90)));
        agent.start();
        agents.put(name, agent);
    }

    /** SIGKILL, as a crash: the container and every job in it die at once. */
    void kill(GenericContainer<?> container) {
        docker().killContainerCmd(container.getContainerId()).exec();
        container.stop();
    }

    void disconnect(String agent) {
        docker().disconnectFromNetworkCmd().withNetworkId(network.getId())
                .withContainerId(agents.get(agent).getContainerId()).withForce(true).exec();
    }

    void reconnect(String agent) {
        docker().connectToNetworkCmd().withNetworkId(network.getId()).withContainerId(agents.get(agent).getContainerId())
                .withContainerNetwork(new ContainerNetwork().withAliases(agent)).exec();
    }

    private static DockerClient docker() {
        return DockerClientFactory.instance().client();
    }

    // ------------------------------------------------------------------ the API

    URI api(String path) {
        return URI.create("http://" + scheduler.getHost() + ":" + scheduler.getMappedPort(8080) + "/api/v1" + path);
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(api(path)).GET());
    }

    JsonNode post(String path, String body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(api(path)).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.header("Authorization", "Bearer " + USER_TOKEN)
                .timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = json.readTree(response.body());
        if (response.statusCode() / 100 != 2) {
            throw new ApiError(response.statusCode(), body);
        }
        return body;
    }

    /** A refusal of the API, with its status and body. */
    static final class ApiError extends IOException {
        final int status;
        final JsonNode body;

        ApiError(int status, JsonNode body) {
            super(status + ": " + body);
            this.status = status;
            this.body = body;
        }
    }

    /**
     * Submits {@code jobs} jobs that each record their index, start and end (nanoseconds) in
     * {@code /effects/JOB_ID} after running for {@code seconds}.
     */
    String submit(String pool, int jobs, double cpu, double seconds) throws IOException, InterruptedException {
        String command = "s=$(date +%s%N); sleep " + seconds + "; echo \\\"$GROVE_JOB_INDEX $s $(date +%s%N)\\\" > "
                + "/effects/$GROVE_JOB_ID";
        String spec = "{\"pool\": \"" + pool + "\", \"max_failed_job_count\": 100, \"tasks\": {\"main\": {\"job_count\": "
                + jobs + ", \"cpu\": " + cpu + ", \"memory\": \"64Mi\", \"command\": \"" + command + "\"}}}";
        return post("/operations", spec).get("id").asText();
    }

    JsonNode operation(String id) throws IOException, InterruptedException {
        return get("/operations/" + id);
    }

    String state(String id) throws IOException, InterruptedException {
        return operation(id).get("state").asText();
    }

    List<JsonNode> attempts(String id) throws IOException, InterruptedException {
        List<JsonNode> list = new ArrayList<>();
        get("/operations/" + id + "/jobs").forEach(list::add);
        return list;
    }

    /** How long the scheduler has not heard from a node, by the node's last heartbeat in the API. */
    Duration silence(String node) throws IOException, InterruptedException {
        for (JsonNode view : get("/nodes")) {
            if (view.get("id").asText().equals(node)) {
                return Duration.between(java.time.Instant.parse(view.get("last_heartbeat").asText()), java.time.Instant.now());
            }
        }
        throw new IOException("no node " + node);
    }

    int onlineNodes() {
        try {
            int online = 0;
            for (JsonNode node : get("/nodes")) {
                online += node.get("state").asText().equals("online") ? 1 : 0;
            }
            return online;
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    // ------------------------------------------------------------------ side effects

    /** What one job attempt did: its index and when it ran. */
    record Effect(String jobId, String operation, int index, long start, long end) {
    }

    List<Effect> effects() throws IOException {
        List<Effect> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(effects)) {
            for (Path file : files.toList()) {
                String[] parts = Files.readString(file).trim().split(" ");
                if (parts.length != 3) {
                    continue;   // being written
                }
                String jobId = file.getFileName().toString();
                found.add(new Effect(jobId, jobId.substring(0, jobId.lastIndexOf('-')), Integer.parseInt(parts[0]),
                        Long.parseLong(parts[1]), Long.parseLong(parts[2])));
            }
        }
        return found;
    }

    // ------------------------------------------------------------------ waiting

    interface Check {
        boolean test() throws Exception;
    }

    /** Waits for real containers, processes and timeouts, polling every 200 ms. */
    static void awaitTrue(String what, Duration timeout, Check check) {
        io.grove.testing.Await.within(what, timeout, Duration.ofMillis(200), check::test);
    }

    /** Keeps what each container printed in target/e2e-logs/, then removes the containers. */
    @Override
    public void close() {
        Path logs = Path.of("target", "e2e-logs", dir.getFileName().toString());
        Map<String, GenericContainer<?>> all = new LinkedHashMap<>(agents);
        if (group.isEmpty() && scheduler != null) {
            all.put("scheduler", scheduler);
        }
        all.putAll(group);
        if (zookeeper != null) {
            all.put("zookeeper", zookeeper);
        }
        for (Map.Entry<String, GenericContainer<?>> container : all.entrySet()) {
            try {
                if (container.getValue().isRunning()) {
                    Files.createDirectories(logs);
                    Files.writeString(logs.resolve(container.getKey() + ".log"), container.getValue().getLogs());
                }
            } catch (IOException | RuntimeException e) {
                // the logs are a help, not a result
            }
            container.getValue().stop();
        }
        network.close();
    }
}
