package io.grove.server;

import io.grove.testing.Await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change is made only once its record is durable: with the data directory full, or the journal
 * deleted under the daemon, a submission is answered 503 and leaves no trace, an abort is not
 * applied, and after SIGKILL exactly the acknowledged operations come back.
 */
class WriteAheadTest {

    static final String SPEC = "pool: prod\ntasks:\n  main: {job_count: 1, command: \"sleep 100\", cpu: 1, memory: 1Gi}\n";

    /** Submits with an Idempotency-Key; the status and the operation's id when it was made. */
    static DaemonFixture.Reply submit(DaemonFixture users, int port, String key) throws Exception {
        HttpResponse<String> response = users.http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v1/operations")).header("X-Grove-User", "alice")
                .header("Idempotency-Key", key).POST(HttpRequest.BodyPublishers.ofString(SPEC)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new DaemonFixture.Reply(response.statusCode(), users.json.readTree(response.body()));
    }

    static Set<String> listed(DaemonFixture users) throws Exception {
        Set<String> ids = new HashSet<>();
        users.get("/api/v1/operations").body().forEach(op -> ids.add(op.get("id").asText()));
        return ids;
    }

    @Test
    void aJournalDeletedUnderTheDaemonAcknowledgesNothingUntilItIsWrittenAfresh(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        Path data = dir.resolve("data");
        Set<String> acknowledged = new HashSet<>();
        int refused = 0;
        try (DaemonFixture users = new DaemonFixture()) {
            try (DaemonProcess daemon = DaemonProcess.start(config, data)) {
                users.at(daemon.httpPort, daemon.nodePort);
                acknowledged.add(users.submit("prod", 1));
                Files.delete(data.resolve("journal"));
                DaemonFixture.Reply first = submit(users, daemon.httpPort, "after-delete");
                assertEquals(503, first.status(), "the first write after the delete is refused: " + first);
                assertEquals("NOT_WRITTEN", first.body().get("code").asText());
                refused++;
                assertEquals(Set.copyOf(acknowledged), listed(users), "the refused submission left no trace");
                // written afresh from the live state within a second; then the same key is made once
                DaemonFixture.Reply made = first;
                for (int i = 0; i < 200 && made.status() != 201; i++) {
                    Await.until("a snapshot of the live state", () -> Files.exists(data.resolve("journal")));
                    made = submit(users, daemon.httpPort, "after-delete");
                }
                assertEquals(201, made.status(), made.toString());
                acknowledged.add(made.body().get("id").asText());
                DaemonFixture.Reply again = submit(users, daemon.httpPort, "after-delete");
                assertEquals(200, again.status(), "a retry with the same key answers the same operation: " + again);
                assertEquals(made.body().get("id"), again.body().get("id"));
                assertEquals(200, users.get("/healthz").status());
            }
            try (DaemonProcess revived = DaemonProcess.start(config, data)) {
                users.at(revived.httpPort, revived.nodePort);
                assertEquals(acknowledged, listed(users), "exactly the acknowledged operations are back");
                assertEquals(200, submit(users, revived.httpPort, "after-delete").status(),
                        "the key survives the restart");
            }
        }
        assertEquals(1, refused);
    }

    @Test
    void aFullDataDirectoryRefusesChangesWith503AndLosesNoAcknowledgedOne(@TempDir Path dir) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a small tmpfs needs root");
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        Path mount = Files.createDirectory(dir.resolve("small"));
        mount("-t", "tmpfs", "-o", "size=2m", "tmpfs", mount.toString());
        try (DaemonFixture users = new DaemonFixture()) {
            Path data = mount.resolve("data");
            Set<String> acknowledged = new HashSet<>();
            String running;
            try (DaemonProcess daemon = DaemonProcess.start(config, data)) {
                users.at(daemon.httpPort, daemon.nodePort);
                java.util.List<String> ops = new java.util.ArrayList<>();
                // enough that their aborts outgrow whatever the journal's last page has left, wherever it ends
                // (each pool takes at most 50; prod keeps room for the submissions below)
                for (int i = 0; i < 85; i++) {
                    ops.add(users.submit(i < 40 ? "prod" : "adhoc", 1));
                }
                acknowledged.addAll(ops);
                fill(mount.resolve("filler"));
                // the journal's last page may still take a record or two; then the disk refuses even an abort
                DaemonFixture.Reply abort = null;
                String target = null;
                for (int i = 0; i < ops.size() && (abort == null || abort.status() == 200); i++) {
                    target = ops.get(i);
                    abort = users.send("POST", "/api/v1/operations/" + target + "/abort", null);
                }
                running = target;
                assertEquals(503, abort.status(), abort.toString());
                assertEquals("NOT_WRITTEN", abort.body().get("code").asText());
                assertTrue(abort.body().get("message").asText().contains("cannot write its state"), abort.toString());
                assertNotEquals("aborted", users.get("/api/v1/operations/" + running).body().get("state").asText(),
                        "an abort that could not be written is not applied");
                DaemonFixture.Reply refused = submit(users, daemon.httpPort, "on-a-full-disk");
                assertEquals(503, refused.status(), refused.toString());
                assertEquals("NOT_WRITTEN", refused.body().get("code").asText());
                assertTrue(users.get("/metrics").body().asText().contains("grove_state_write_failing 1.0"),
                        "the metric says the daemon cannot write");
                DaemonFixture.Reply health = users.get("/healthz");
                assertEquals(503, health.status(), health.toString());
                assertEquals("failing", health.body().get("status").asText());
                assertEquals(acknowledged, listed(users));

                Files.delete(mount.resolve("filler"));
                DaemonFixture.Reply made = submit(users, daemon.httpPort, "after-the-disk-has-room");
                assertEquals(201, made.status(), made.toString());
                acknowledged.add(made.body().get("id").asText());
                assertEquals(200, users.get("/healthz").status());
            }
            try (DaemonProcess revived = DaemonProcess.start(config, data)) {
                users.at(revived.httpPort, revived.nodePort);
                assertEquals(acknowledged, listed(users), "exactly the acknowledged operations are back");
                JsonNode op = users.get("/api/v1/operations/" + running).body();
                assertNotEquals("aborted", op.get("state").asText(), "the refused abort is not in the journal");
            }
        } finally {
            new ProcessBuilder("/bin/umount", "-l", mount.toString()).inheritIO().start().waitFor();
        }
    }

    @Test
    void anImmutableJournalRefusesChangesUntilItIsWritableAgain(@TempDir Path dir) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a file system image needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/mkfs.ext4")) && Files.isExecutable(Path.of("/usr/bin/chattr")),
                "ext4 tools (e2fsprogs)");
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        Path image = dir.resolve("ext4.img");
        Path mount = Files.createDirectory(dir.resolve("ext4"));
        run("/usr/bin/truncate", "-s", "16M", image.toString());
        run("/usr/sbin/mkfs.ext4", "-q", image.toString());
        mount("-o", "loop", image.toString(), mount.toString());
        Path data = mount.resolve("data");
        try (DaemonFixture users = new DaemonFixture()) {
            Set<String> acknowledged = new HashSet<>();
            String running;
            try (DaemonProcess daemon = DaemonProcess.start(config, data)) {
                users.at(daemon.httpPort, daemon.nodePort);
                running = users.submit("prod", 1);
                acknowledged.add(running);
                run("/usr/bin/chattr", "+i", data.resolve("journal").toString());
                DaemonFixture.Reply refused = submit(users, daemon.httpPort, "while-immutable");
                assertEquals(503, refused.status(), refused.toString());
                assertEquals("NOT_WRITTEN", refused.body().get("code").asText());
                assertEquals(503, users.send("POST", "/api/v1/operations/" + running + "/abort", null).status());
                assertEquals("running", users.get("/api/v1/operations/" + running).body().get("state").asText());
                assertEquals(503, users.get("/healthz").status());
                assertEquals(acknowledged, listed(users));

                run("/usr/bin/chattr", "-i", data.resolve("journal").toString());
                DaemonFixture.Reply made = submit(users, daemon.httpPort, "while-immutable");
                assertEquals(201, made.status(), "once the journal takes writes again: " + made);
                acknowledged.add(made.body().get("id").asText());
                assertEquals(200, users.get("/healthz").status());
            }
            try (DaemonProcess revived = DaemonProcess.start(config, data)) {
                users.at(revived.httpPort, revived.nodePort);
                assertEquals(acknowledged, listed(users), "exactly the acknowledged operations are back");
                assertEquals("running", users.get("/api/v1/operations/" + running).body().get("state").asText());
            }
        } finally {
            new ProcessBuilder("/usr/bin/chattr", "-i", data.resolve("journal").toString()).start().waitFor();
            new ProcessBuilder("/bin/umount", "-l", mount.toString()).inheritIO().start().waitFor();
        }
    }

    /** Mounts, or skips the test where this machine cannot (no loop devices, no privilege). */
    static void mount(String... arguments) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("/bin/mount"));
        command.addAll(java.util.List.of(arguments));
        assumeTrue(new ProcessBuilder(command).inheritIO().start().waitFor() == 0, "cannot mount: " + command);
    }

    static void run(String... command) throws Exception {
        assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor(), String.join(" ", command));
    }

    /** Fills the file system {@code file} is on, to the last byte it takes. */
    static void fill(Path file) throws Exception {
        try (var out = Files.newOutputStream(file)) {
            byte[] block = new byte[64 * 1024];
            while (true) {
                out.write(block);
            }
        } catch (java.io.IOException full) {
            // no space left on the device
        }
        try (var out = Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND)) {
            while (true) {
                out.write(0);
                out.flush();
            }
        } catch (java.io.IOException full) {
            // to the last byte
        }
    }
}
