package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.agent.image.ImageSettings;
import io.grove.agent.job.JobPolicy;
import io.grove.agent.job.ProcessJobRunner;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One hostile-job suite for every way of running a job: each attack runs as a job on a real
 * scheduler and a real agent running as root, once per {@link Runner}. A new way of running a job
 * is not done until it is a runner here and passes every attack. {@code docs/security.md}'s threat
 * table names each attack's test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileJobSuiteTest {

    /** The ways of running a job. */
    enum Runner { BARE, IMAGE }

    /** A node the attacks run on: a scheduler, an agent, for images a registry and an image with traps. */
    private static final class Node implements AutoCloseable {
        final Path dir;
        final ClusterFixture cluster;
        final AgentDaemon agent;
        final TestRegistry registry;
        final String image;

        Node(Path dir, ClusterFixture cluster, AgentDaemon agent, TestRegistry registry, String image) {
            this.dir = dir;
            this.cluster = cluster;
            this.agent = agent;
            this.registry = registry;
            this.image = image;
        }

        @Override
        public void close() throws Exception {
            agent.close();
            cluster.close();
            if (registry != null) {
                registry.close();
            }
        }
    }

    /** A finished attack: its job's record and what it wrote. */
    record Outcome(JsonNode job, String out, String err) {
        String state() {
            return job.get("state").asText();
        }
    }

    private final Map<Runner, Node> nodes = new EnumMap<>(Runner.class);
    /** A real ZooKeeper the nodes are told is part of their control plane. */
    private org.apache.curator.test.TestingServer zookeeper;
    private Path root;
    /** A host directory open to everyone, outside the jobs' private places: traps are set here. */
    private Path traps;

    @BeforeAll
    void root() throws Exception {
        Assumptions.assumeTrue(io.grove.agent.job.JobUsers.processIsRoot(), "a hostile job needs an agent running as root");
        root = Files.createTempDirectory("grove-hostile-");
        traps = ClusterFixture.openFolder();
        zookeeper = new org.apache.curator.test.TestingServer(true);
    }

    @AfterAll
    void close() throws Exception {
        for (Node node : nodes.values()) {
            node.close();
        }
        if (traps != null) {
            NodeSabotageTest.deleteTree(traps);
        }
        if (root != null) {
            NodeSabotageTest.deleteTree(root);
        }
        if (zookeeper != null) {
            zookeeper.close();
        }
    }

    /** The node of {@code runner}, started at its first attack. */
    private Node node(Runner runner) throws Exception {
        Node node = nodes.get(runner);
        if (node != null) {
            return node;
        }
        if (runner == Runner.IMAGE) {
            String missing = TestRegistry.missing();
            Assumptions.assumeTrue(missing == null, missing);
        }
        Path dir = Files.createDirectories(root.resolve(runner.name().toLowerCase()));
        ClusterFixture cluster = new ClusterFixture(dir);
        TestRegistry registry = null;
        String image = null;
        AgentSettings.Builder settings = cluster.agentSettings("n1", 4).toBuilder()
                .jobPolicy(new JobPolicy(io.grove.agent.job.CpuLimit.QUOTA, 32, 1L << 30, true))
                .jobNetwork(new io.grove.agent.job.JobNetwork(true, List.of("127.0.0.1:" + zookeeper.getPort())));
        if (runner == Runner.IMAGE) {
            registry = TestRegistry.start(dir.resolve("registry"), null, null);
            TestRegistry.Image plain = TestRegistry.Image.plain();
            // an image that brings the host's devices: a loop device, the kernel log, a set-uid shell
            image = registry.push("hostile/traps", "1", new TestRegistry.Image(plain.files(), plain.env(), plain.entrypoint(),
                    plain.cmd(), null, 0, true, Map.of("/hostdev/loop0", "b 7 0", "/hostdev/kmsg", "c 1 11",
                            "/hostdev/mem", "c 1 1"), List.of("/bin/busybox")));
            settings.images(new ImageSettings(true, ImageSettings.DEFAULT_CACHE_BYTES, null, List.of(registry.host()),
                    Duration.ofSeconds(60), null));
        }
        AgentDaemon agent = AgentDaemon.start(settings.build(), ProcessJobRunner.system());
        agent.welcomed().get(30, TimeUnit.SECONDS);
        node = new Node(dir, cluster, agent, registry, image);
        nodes.put(runner, node);
        return node;
    }

    /** Runs {@code command} as one job of {@code runner} (with {@code extra} task fields) and waits for its end. */
    private Outcome attack(Runner runner, String command, String extra) throws Exception {
        Node node = node(runner);
        ClusterFixture cluster = node.cluster;
        String spec = "pool: prod\ntasks:\n  main: {job_count: 1, cpu: 0.5, memory: 64Mi, command: "
                + cluster.json.writeValueAsString(command) + (node.image == null ? "" : ", docker_image: '" + node.image + "'")
                + extra + "}\n";
        HttpResponse<String> response = cluster.http.send(HttpRequest.newBuilder(cluster.api("/api/v1/operations"))
                .header("X-Grove-User", "mallory").POST(HttpRequest.BodyPublishers.ofString(spec)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, response.statusCode(), response.body());
        String op = cluster.json.readTree(response.body()).get("id").asText();
        JsonNode job = ImageJobsTest.firstEnded(cluster, op);
        return new Outcome(job, log(cluster, job, "stdout"), log(cluster, job, "stderr"));
    }

    private static String log(ClusterFixture cluster, JsonNode job, String stream) throws Exception {
        JsonNode answer = cluster.get(URI.create("http://" + job.get("node_address").asText() + "/api/v1/jobs/"
                + job.get("id").asText() + "/logs?stream=" + stream));
        return answer.has("data") ? answer.get("data").asText() : "";
    }

    private static void completed(Outcome outcome) {
        assertEquals("completed", outcome.state(), outcome.job() + "\nstdout: " + outcome.out() + "\nstderr: " + outcome.err());
    }

    /** Makes a device node on the host, open to everyone, where a job could find it. */
    private Path hostDevice(String name, String type, int major, int minor) throws Exception {
        Path node = traps.resolve(name);
        Files.deleteIfExists(node);
        TestRegistry.run(List.of("/usr/bin/mknod", "-m", "0666", node.toString(), type, Integer.toString(major),
                Integer.toString(minor)));
        return node;
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void devicesAreAnAllowListAndNoneOfTheHostsOrTheImagesCanBeOpened(Runner runner) throws Exception {
        Path loop = hostDevice("loop0-" + runner, "b", 7, 0);
        Path kmsg = hostDevice("kmsg-" + runner, "c", 1, 11);
        String probe = "for d in " + loop + " " + kmsg + " /hostdev/loop0 /hostdev/kmsg /hostdev/mem /dev/kmsg /dev/mem "
                + "/dev/fuse /dev/net/tun; do if (echo x > $d) 2>/dev/null || (head -c 1 $d > /dev/null) 2>/dev/null; "
                + "then echo \"OPENED $d\"; else echo \"kept from $d\"; fi; done; echo dev: $(ls /dev); "
                + "echo null: $(echo fine > /dev/null && head -c 4 /dev/zero | wc -c) $(head -c 4 /dev/urandom | wc -c); "
                + "ls -l /bin/busybox 2>/dev/null; mknod /tmp/made c 1 11 2>&1; true";
        Outcome outcome = attack(runner, probe, "");
        completed(outcome);
        assertFalse(outcome.out().contains("OPENED"), "a device outside the allow-list was opened: " + outcome.out());
        assertTrue(outcome.out().contains("kept from " + kmsg), outcome.out());
        java.util.regex.Matcher dev = java.util.regex.Pattern.compile("dev: (.*)\n").matcher(outcome.out());
        assertTrue(dev.find(), outcome.out());
        List<String> listed = List.of(dev.group(1).trim().split("\\s+"));
        for (String name : listed) {
            assertTrue(List.of("null", "zero", "full", "random", "urandom", "tty", "ptmx", "pts", "shm", "mqueue", "fd",
                    "stdin", "stdout", "stderr", "core").contains(name), "a device not on the list: " + name + " in " + listed);
        }
        assertTrue(outcome.out().contains("null: 4 4"), "the usual devices work: " + outcome.out());
        assertTrue(outcome.out().contains("Operation not permitted"), "no device can be made: " + outcome.out());
        if (runner == Runner.IMAGE) {
            assertFalse(outcome.out().matches("(?s).*-rws.*busybox.*"), "set-uid bits are cleared: " + outcome.out());
        }
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void sysVIpcIsTheJobsOwnAndGoneWithIt(Runner runner) throws Exception {
        // a segment of the host's, as another job's or a service's would be
        TestRegistry.run(List.of("/usr/bin/ipcmk", "-M", "4096", "-p", "0600"));
        List<String> before = hostSegments();
        assertFalse(before.isEmpty(), "the host has a segment");
        String command = (runner == Runner.BARE ? "ipcmk -M 1048576 >/dev/null; ipcmk -Q >/dev/null; " : "")
                + "echo segments: $(tail -n +2 /proc/sysvipc/shm | wc -l) queues: $(tail -n +2 /proc/sysvipc/msg | wc -l)";
        Outcome outcome = attack(runner, command, "");
        completed(outcome);
        int seen = Integer.parseInt(outcome.out().replaceAll("(?s).*segments: (\\d+).*", "$1"));
        assertEquals(runner == Runner.BARE ? 1 : 0, seen, "it sees its own segments only: " + outcome.out());
        assertEquals(before, hostSegments(), "nothing it made outlives it on the host");
        for (String id : before) {
            TestRegistry.run(List.of("/usr/bin/ipcrm", "-m", id));
        }
    }

    private static List<String> hostSegments() throws IOException {
        return Files.readAllLines(Path.of("/proc/sysvipc/shm")).stream().skip(1)
                .map(line -> line.trim().split("\\s+")[1]).toList();
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void procAndTmpShowNothingOfTheNodesOrOtherJobs(Runner runner) throws Exception {
        Path secret = Files.writeString(Path.of("/tmp", "grove-hostile-" + runner + "-" + System.nanoTime()), "host secret");
        try {
            long self = ProcessHandle.current().pid();
            Outcome outcome = attack(runner, "cat " + secret + " 2>&1; ls /proc/" + self + " >/dev/null 2>&1 && echo SAW-HOST; "
                    + "echo processes: $(ls /proc | grep -c '^[0-9]'); echo mine > /tmp/t && cat /tmp/t", "");
            completed(outcome);
            assertFalse(outcome.out().contains("host secret"), outcome.out());
            assertFalse(outcome.out().contains("SAW-HOST"), "it saw the host's processes: " + outcome.out());
            int processes = Integer.parseInt(outcome.out().replaceAll("(?s).*processes: (\\d+).*", "$1"));
            assertTrue(processes <= 4, "its /proc shows its own processes only: " + outcome.out());
            assertTrue(outcome.out().endsWith("mine\n"), "its own /tmp works: " + outcome.out());
        } finally {
            Files.deleteIfExists(secret);
        }
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void nothingItStartsOutlivesItAndTheNextJobOnItsUidFindsNothing(Runner runner) throws Exception {
        Outcome first = attack(runner, "id -u; (setsid sleep 600 </dev/null >/dev/null 2>&1 &); "
                + "echo left > /dev/shm/left; echo left > /tmp/left; true", "");
        completed(first);
        String uid = first.out().lines().findFirst().orElseThrow().trim();
        ClusterFixture.await("nothing of uid " + uid + " left", () -> ProcessHandle.allProcesses()
                .noneMatch(p -> uidOf(p.pid()).equals(uid) && p.info().command().orElse("").endsWith("sleep")));
        Outcome next = attack(runner, "cat /dev/shm/left /tmp/left 2>&1; true", "");
        completed(next);
        assertFalse(next.out().contains("left\n"), "a later job found an earlier one's files: " + next.out());
    }

    private static String uidOf(long pid) {
        try {
            return String.valueOf(Files.getAttribute(Path.of("/proc", Long.toString(pid)), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void aForkBombAndAMemoryHogAreStoppedAtTheirLimits(Runner runner) throws Exception {
        Outcome bomb = attack(runner, "for i in $(seq 1 100); do sleep 5 & done; wait; exit 3", "");
        assertEquals("failed", bomb.state(), bomb.job().toString());
        assertTrue(bomb.job().get("message").asText().contains("limit of 32"), bomb.job().toString());
        Outcome hog = attack(runner, "dd if=/dev/zero of=/dev/null bs=200M count=1", "");
        assertEquals("failed", hog.state(), hog.job().toString());
        assertTrue(hog.job().get("message").asText().contains("memory limit exceeded"), hog.job().toString());
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void theControlPlaneIsClosedToJobsAndTheApiIsNot(Runner runner) throws Exception {
        Node node = node(runner);
        Assumptions.assumeTrue(io.grove.agent.job.JobFirewall.locateNft() != null, "nftables is not installed");
        List<Integer> closed = List.of(node.cluster.nodePort, zookeeper.getPort(), node.agent.httpPort(),
                node.agent.brokerPort());
        StringBuilder probe = new StringBuilder();
        for (int port : concat(closed, node.cluster.httpPort)) {
            // busybox's nc (images) has no -z: it fails with 1 when it cannot connect (refused, or no answer in
            // 2 s), else it stays connected until the far side closes, so a connection is any other ending
            String connect = runner == Runner.BARE ? "timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port + "'"
                    : "(timeout 3 nc -w 2 127.0.0.1 " + port + " </dev/null >/dev/null 2>&1; test $? -ne 1)";
            probe.append("if ").append(connect).append(" >/dev/null 2>&1; then echo 'REACHED ").append(port)
                    .append("'; else echo 'closed ").append(port).append("'; fi; ");
        }
        Outcome outcome = attack(runner, probe + "true", "");
        completed(outcome);
        for (int port : closed) {
            assertTrue(outcome.out().contains("closed " + port + "\n"), "port " + port + " of the control plane: "
                    + outcome.out());
        }
        assertTrue(outcome.out().contains("REACHED " + node.cluster.httpPort), "the API stays open to jobs: " + outcome.out());
        // the node itself still reaches what it needs: its scheduler (it took the job) and ZooKeeper
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", zookeeper.getPort())) {
            assertTrue(socket.isConnected());
        }
    }

    private static List<Integer> concat(List<Integer> ports, int more) {
        List<Integer> all = new java.util.ArrayList<>(ports);
        all.add(more);
        return all;
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void aDiskFloodStopsAtItsOrderHoweverFastItWrites(Runner runner) throws Exception {
        Outcome flood = attack(runner, "head -c 200000000 /dev/zero > $HOME/tmp/flood; head -c 200000000 /dev/zero",
                ", disk_space: 8Mi");
        assertEquals("failed", flood.state(), flood.job().toString());
        assertTrue(flood.job().get("message").asText().contains("disk limit"), flood.job().toString());
        Path sandbox = new io.grove.agent.job.WorkDir(node(runner).dir.resolve("n1"), true).sandbox(flood.job().get("id").asText());
        ClusterFixture.await("the flood's sandbox removed", () -> !Files.exists(sandbox));
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void spinningPastItsCpuIsThrottledToItsOrder(Runner runner) throws Exception {
        Outcome spin = attack(runner, "for i in 1 2 3; do timeout 2 sh -c 'while :; do :; done' & done; wait; true", "");
        completed(spin);
        // half a core ordered, three spinning: held to its quota (without one nothing is throttled)
        assertTrue(spin.job().get("cpu_throttled_seconds").asDouble() > 0, "throttled: " + spin.job());
    }

    @ParameterizedTest
    @EnumSource(Runner.class)
    void linksPlantedForRootAreNeverFollowedWhenTheSandboxIsRemoved(Runner runner) throws Exception {
        Path victim = Files.createDirectories(traps.resolve("victim-" + runner));
        Path precious = Files.writeString(victim.resolve("precious"), "keep me");
        Outcome outcome = attack(runner, "ln -s " + victim + " $HOME/victim; ln -s " + precious + " $HOME/tmp/precious; "
                + "ln -s / $HOME/root; echo planted", "");
        completed(outcome);
        Path sandbox = new io.grove.agent.job.WorkDir(node(runner).dir.resolve("n1"), true).sandbox(outcome.job().get("id").asText());
        ClusterFixture.await("the sandbox " + sandbox + " removed", () -> !Files.exists(sandbox));
        assertEquals("keep me", Files.readString(precious), "the agent followed a job's link");
    }
}
