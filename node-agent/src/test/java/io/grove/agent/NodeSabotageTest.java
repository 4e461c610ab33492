package io.grove.agent;

import static io.grove.agent.ClusterFixture.await;
import static io.grove.agent.ClusterFixture.unchecked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.WorkDir;
import io.grove.agent.net.BrokerTokens;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.broker.BrokerClient;
import io.grove.protocol.broker.BrokerMessage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that tries to take its node over, run by a real agent (as root, as its systemd unit ships
 * it) for a real scheduler: it cannot read the broker's tokens, and the broker refuses it.
 */
class NodeSabotageTest {

    /** Bash that sends one frame of JSON to the broker port and prints what comes back. */
    private static String sendFrame(int port, String json) {
        return "exec 3<>/dev/tcp/127.0.0.1/" + port + "; body='" + json + "'; "
                + "printf \"\\\\x00\\\\x00\\\\x$(printf %02x $((${#body} >> 8)))\\\\x$(printf %02x $((${#body} & 255)))%s\" \"$body\" >&3; "
                + "timeout 5 cat <&3 | tr -d '\\000-\\010'; echo";
    }

    @Test
    void aJobCanNeitherReadTheBrokersTokensNorConfigureOrHoldItsTasks(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "jobs run as other users only under a root agent");
        Path folder = ClusterFixture.openFolder();
        try (ClusterFixture cluster = new ClusterFixture(folder); AgentDaemon agent = cluster.agent("n1", 2)) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            Path work = folder.resolve("n1");
            String configure = "{\"type\":\"configure\",\"resource_limit\":{\"cpu\":0.001},"
                    + "\"queues\":[{\"name\":\"q\",\"weight\":1}],\"task_types\":[{\"name\":\"unknown\",\"queue\":\"q\"}]}";
            String hold = "{\"type\":\"submit\",\"task_id\":1,\"resources\":{\"cpu\":1.8},\"task_type\":\"transaction\"}";
            String guess = "{\"type\":\"hello\",\"token\":\"0123456789abcdef0123\"}";
            String op = cluster.submit(1, 1, "cat " + work.resolve(BrokerTokens.CLIENT_FILE) + " "
                    + work.resolve(BrokerTokens.ADMIN_FILE) + "; "
                    + sendFrame(agent.brokerPort(), configure) + "; " + sendFrame(agent.brokerPort(), hold) + "; "
                    + sendFrame(agent.brokerPort(), guess) + "; exit 0");
            await("the job to end", unchecked(() -> cluster.state(op).equals("completed")));
            String jobId = cluster.jobs(op).get(0).get("id").asText();
            WorkDir workDir = new WorkDir(work, true);
            // the frames' length prefixes are binary
            String out = new String(Files.readAllBytes(workDir.log(jobId, "stdout").orElseThrow()),
                    java.nio.charset.StandardCharsets.ISO_8859_1);
            String err = Files.readString(workDir.log(jobId, "stderr").orElseThrow());
            assertTrue(JobIsolationTest.keptFrom(err, work.resolve(BrokerTokens.CLIENT_FILE))
                    && JobIsolationTest.keptFrom(err, work.resolve(BrokerTokens.ADMIN_FILE)), err);
            BrokerTokens tokens = agent.brokerTokens();
            assertFalse(out.contains(tokens.client()) || out.contains(tokens.admin()), out);
            // with the jobs' firewall (nftables) the broker's port is closed to jobs; without, every frame is refused
            int refused = out.split("\"code\":\"unauthenticated\"", -1).length - 1;
            assertTrue(refused == 3 || refused == 0 && err.contains("Connection refused"), "every frame refused: " + out
                    + "\n" + err);

            JsonNode broker = cluster.get(URI.create("http://127.0.0.1:" + agent.httpPort() + "/api/v1/broker"));
            assertTrue(broker.get("tasks").isEmpty(), "the job holds no broker task: " + broker);
            assertEquals(10.0, broker.get("resource_limit").get("cpu").asDouble(), "the broker's limit is unchanged");
            await("the node to offer its 2 cpu", unchecked(() ->
                    cluster.get("/api/v1/nodes").get(0).get("resource_limits").get("cpu").asDouble() == 2.0));
        } finally {
            deleteTree(folder);
        }
    }

    @Test
    void aServiceWithTheClientTokenMayNotConfigureAndAWrongTokenIsRefused(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 1)) {
            IOException wrong = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                    () -> BrokerClient.connect("127.0.0.1", agent.brokerPort(), "not-the-token-of-this-node", m -> { }));
            assertTrue(wrong.getMessage().contains("the token is not this node's broker token"), wrong.getMessage());
            try (BrokerClient client = BrokerClient.connect("127.0.0.1", agent.brokerPort(), agent.brokerTokens().client(),
                    m -> { })) {
                BrokerMessage.ConfigureResult refused = client.configure(new BrokerMessage.Configure(
                        new BrokerMessage.Amounts(0.001, null), List.of(new BrokerMessage.Queue("q", 1, null)),
                        List.of(new BrokerMessage.TaskType("unknown", "q", 0)))).get(30, TimeUnit.SECONDS);
                assertFalse(refused.success());
                assertTrue(refused.message().contains("admin token"), refused.message());
            }
            Path token = dir.resolve("n1").resolve(BrokerTokens.CLIENT_FILE);
            assertEquals("rw-------", JobIsolationTest.mode(token));
            Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            IOException open = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                    () -> BrokerTokens.inDirectory(dir.resolve("n1")));
            assertTrue(open.getMessage().contains("jobs could read or change the broker's token"), open.getMessage());
        }
    }

    /** How many of {@code sockets} the other side has closed (a read finds the end at once). */
    private static int closed(List<java.net.Socket> sockets) {
        int closed = 0;
        for (java.net.Socket socket : sockets) {
            try {
                socket.setSoTimeout(1);
                if (socket.getInputStream().read() == -1) {
                    closed++;
                }
            } catch (java.net.SocketTimeoutException open) {
                // still open
            } catch (java.io.IOException reset) {
                closed++;
            }
        }
        return closed;
    }

    /** A frame of the broker's protocol: a 4-byte big-endian length, then the JSON. */
    private static byte[] frame(String json) {
        byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return java.nio.ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    @Test
    void connectionsThatNeverSayHelloCannotKeepTheBrokersClientsOut(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 1)) {
            List<java.net.Socket> flood = new java.util.ArrayList<>();
            // a client that connects, then takes its time before its hello
            java.net.Socket slow = new java.net.Socket("127.0.0.1", agent.brokerPort());
            try {
                // more connections than the port holds, none saying hello
                for (int i = 0; i < 300; i++) {
                    flood.add(new java.net.Socket("127.0.0.1", agent.brokerPort()));
                }
                // the port took them all: those over its cap were closed (refused, or shed to make room)
                await("every connection taken", () -> closed(flood) >= 300 + 1 - 256 - 1);
                // the slow client was not shed for them: its hello, once it comes, is taken and it is served
                String hello = "{\"type\":\"hello\",\"token\":\"" + agent.brokerTokens().client() + "\"}";
                String submit = "{\"type\":\"submit\",\"task_id\":7,\"task_type\":\"transaction\","
                        + "\"resources\":{\"cpu\":0.1},\"cookie\":\"slow\"}";
                slow.getOutputStream().write(frame(hello));
                slow.getOutputStream().write(frame(submit));
                slow.setSoTimeout(30_000);
                java.io.DataInputStream in = new java.io.DataInputStream(slow.getInputStream());
                StringBuilder answers = new StringBuilder();
                for (int i = 0; i < 2; i++) {
                    byte[] body = new byte[in.readInt()];
                    in.readFully(body);
                    answers.append(new String(body, java.nio.charset.StandardCharsets.UTF_8)).append('\n');
                }
                assertTrue(answers.toString().contains("hello_result") && answers.toString().contains("\"allocated\""),
                        "the slow client is served: " + answers);
                // a new client with the node's token gets in once the silent connections are past their grace
                // (the oldest of them makes room) and is served
                await("a new client served", unchecked(() -> {
                    try (BrokerClient client = BrokerClient.connect("127.0.0.1", agent.brokerPort(),
                            agent.brokerTokens().client(), m -> { })) {
                        return new BrokerMessage.Allocated(1, "c").equals(client.submit(new BrokerMessage.Submit(1, "t",
                                new BrokerMessage.Amounts(0.1, null), "transaction", 0, "c")).get(30, TimeUnit.SECONDS));
                    }
                }));
                // and a silent connection is closed once its time for a hello is up
                java.net.Socket last = flood.get(flood.size() - 1);
                last.setSoTimeout(30_000);
                assertEquals(-1, last.getInputStream().read(), "closed without a hello");
            } finally {
                slow.close();
                for (java.net.Socket socket : flood) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aLinkPlantedWhereTheNextSandboxGoesNeverRedirectsTheAgent(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "the agent changes owners only as root");
        Path victim = Files.createDirectory(dir.resolve("victim"));
        Files.setPosixFilePermissions(victim, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        Path work = dir.resolve("work");
        try (AgentFixture f = new AgentFixture(work, JobUsers.forAgent(List.of(), JobIsolationTest.UIDS, true,
                JobIsolationTest.PASSWD))) {
            WorkDir workDir = new WorkDir(work, true);
            Path next = workDir.sandbox("op-1-2");
            // a job cannot write where sandboxes are made
            f.start(AgentFixture.job("op-1-1", "ln -s " + victim + " " + next + "; ls " + next.getParent(), 0));
            FinishedJob first = f.nextResult();
            assertTrue(first.error() != null && JobIsolationTest.keptFrom(first.error(), "'" + next + "'"), String.valueOf(first.error()));
            assertFalse(Files.exists(next, java.nio.file.LinkOption.NOFOLLOW_LINKS));
            // had one been planted all the same, the agent removes the link and makes a directory of its own
            Files.createSymbolicLink(next, victim);
            f.start(AgentFixture.job("op-1-2", "touch mine; pwd", 0));
            FinishedJob second = f.nextResult();
            assertEquals(FinishedJob.Outcome.COMPLETED, second.outcome(), String.valueOf(second.error()));
            assertEquals("rwx------", JobIsolationTest.mode(victim));
            assertEquals(0, Files.getAttribute(victim, "unix:uid"), "the link's target kept its owner");
            try (var inside = Files.list(victim)) {
                assertEquals(List.of(), inside.toList(), "nothing was made through the link");
            }
        }
    }

    @Test
    void aWorkDirectoryUnderADirectoryAnotherUserOwnsIsRefused(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "needs a directory of another user");
        Path theirs = Files.createDirectory(dir.resolve("theirs"));
        Files.setAttribute(theirs, "unix:uid", 43005);
        IOException refused = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> new WorkDir(theirs.resolve("work"), true));
        assertTrue(refused.getMessage().contains("someone else could move what the agent makes under it"),
                refused.getMessage());
    }

    @Test
    void aLaterJobOnTheSameUidFindsNothingOfTheEarlierOnesInTheSharedPlaces(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "private directories need a root agent");
        String marker = "grove-left-" + Long.toHexString(System.nanoTime());
        // one uid only: the second job gets the first one's uid
        try (AgentFixture f = new AgentFixture(dir, JobUsers.forAgent(List.of(), "43009-43009", true, JobIsolationTest.PASSWD))) {
            f.start(AgentFixture.job("op-1-1", "for d in /tmp /var/tmp /dev/shm /run/lock; do echo token=alice > $d/" + marker
                    + "; chmod 600 $d/" + marker + "; done; ls /proc | grep -c '^[0-9]'", 0));
            FinishedJob first = f.nextResult();
            assertEquals(FinishedJob.Outcome.COMPLETED, first.outcome(), String.valueOf(first.error()));
            for (String shared : List.of("/tmp", "/var/tmp", "/dev/shm", "/run/lock")) {
                assertFalse(Files.exists(Path.of(shared, marker)), "the node's own " + shared + " got the job's file");
            }
            f.start(AgentFixture.job("op-1-2", "id -u; cat /tmp/" + marker + " /var/tmp/" + marker + " /dev/shm/" + marker
                    + " /run/lock/" + marker + " 2>&1; exit 0", 0));
            FinishedJob second = f.nextResult();
            assertEquals(FinishedJob.Outcome.COMPLETED, second.outcome(), String.valueOf(second.error()));
            WorkDir workDir = new WorkDir(dir, true);
            String out = Files.readString(workDir.log("op-1-2", "stdout").orElseThrow());
            assertTrue(out.startsWith("43009\n"), "the same uid: " + out);
            assertFalse(out.contains("token=alice"), out);
            assertEquals(4, out.split("No such file or directory", -1).length - 1, out);
            int processes = Integer.parseInt(Files.readString(workDir.log("op-1-1", "stdout").orElseThrow()).trim());
            assertTrue(processes <= 3, "its /proc shows only its own processes: " + processes);
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
