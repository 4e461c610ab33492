package io.grove.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.grove.core.resource.Resources;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hand-written heartbeat codec against data binding: the same bytes out, the same message in,
 * and for any body the fast path does not take, the same message or the same error as before.
 * Seeded random messages and mutations; seeds in the test names.
 */
class HeartbeatCodecTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void writesTheBytesDataBindingWrites(long seed) throws JsonProcessingException {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 300; i++) {
            Message message = random.nextBoolean() ? heartbeat(random) : reply(random);
            assertArrayEquals(ProtocolJson.mapper().writeValueAsBytes(message), ProtocolJson.write(message),
                    "seed " + seed + " message " + i + ": " + message);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {5, 6, 7, 8})
    void readsWhatDataBindingReads(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 300; i++) {
            NodeHeartbeat heartbeat = heartbeat(random);
            byte[] body = ProtocolJson.mapper().writeValueAsBytes(heartbeat);
            NodeHeartbeat fast = HeartbeatReader.readHeartbeat(ProtocolJson.mapper().getFactory(), body);
            assertNotNull(fast, "seed " + seed + " heartbeat " + i + " left the fast path: " + text(body));
            assertEquals(ProtocolJson.bind(body, Message.class), fast);
            assertEquals(heartbeat, fast);
        }
    }

    /** Byte edits and edits of whole values: whatever data binding says, reading says the same. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14, 15, 16})
    void anyBodyGivesWhatDataBindingGives(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        String[] values = {"null", "true", "0", "-1", "1.5", "1e400", "99999999999999999999", "\"x\"", "\"completed\"",
            "\"Infinity\"", "[]", "{}", "[null]", "[{}]", "{\"cpu\":1}", "{\"cpu\":-1}"};
        for (int i = 0; i < 1500; i++) {
            String body = text(ProtocolJson.write(heartbeat(random)));
            switch (random.nextInt(4)) {
                case 0 -> {
                    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                    body = new String(bytes, StandardCharsets.ISO_8859_1);
                }
                case 1 -> body = replaceValue(body, random, values[random.nextInt(values.length)]);
                case 2 -> body = body.substring(0, body.length() - 1) + ",\"node_id\":\"again\"}";
                default -> body = body.replaceFirst("\"" + field(random) + "\"", "\"" + field(random) + "\"");
            }
            byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
            assertEquals(outcome(() -> ProtocolJson.bind(bytes, Message.class)),
                    outcome(() -> ProtocolJson.read(bytes)), "seed " + seed + " body " + i + ": " + body);
        }
    }

    @Test
    void leavesUncommonFormsToDataBinding() {
        String valid = text(ProtocolJson.write(NodeHeartbeat.delta("n1", Resources.cpu(4), Resources.ZERO,
                List.of(new RunningJob("j1", "op", Resources.cpu(1))), List.of())));
        assertNotNull(fast(valid));
        assertNotNull(fast(valid.replace("\"resource_usage\":{", "\"resource_usage\":{\"cpu\":2,")
                .replace(",\"cpu\":0.0,", ",")), "an integer for a number");
        assertNull(fast(valid.replace("\"node_id\"", "\"extra\":1,\"node_id\"")), "an unknown field");
        assertNull(fast(valid.replace("{\"type\":\"heartbeat\",", "{\"node_id\":\"n2\",\"type\":\"heartbeat\",")),
                "a field twice");
        assertNull(fast(valid.replace("\"cpu\":4.0", "\"cpu\":\"4\"")), "a number as text");
        assertNull(fast(valid.replace("\"type\":\"heartbeat\",", "")), "no type");
        assertNull(fast(valid + " {}"), "a trailing value");
        assertNull(fast(valid.replace("\"cpu\":4.0", "\"cpu\":-4")), "a value the record refuses");
        assertNull(fast(valid.replace("\"type\":\"heartbeat\"", "\"type\":\"handshake\"")), "another message");
    }

    @Test
    void keepsDataBindingsErrors() {
        String valid = text(ProtocolJson.write(new NodeHeartbeat("n1", Resources.cpu(4), Resources.ZERO, List.of(),
                List.of())));
        ProtocolException unknown = error(valid.replace("\"node_id\"", "\"extra\":1,\"node_id\""));
        assertEquals("unknown field 'extra' at 'extra'", unknown.getMessage());
        ProtocolException negative = error(valid.replace("\"cpu\":4.0", "\"cpu\":-4"));
        assertEquals(ErrorCode.INVALID_MESSAGE, negative.code());
    }

    // ---- helpers

    private static NodeHeartbeat fast(String body) {
        return HeartbeatReader.readHeartbeat(ProtocolJson.mapper().getFactory(), body.getBytes(StandardCharsets.UTF_8));
    }

    private static ProtocolException error(String body) {
        try {
            ProtocolJson.read(body.getBytes(StandardCharsets.UTF_8));
        } catch (ProtocolException e) {
            return e;
        }
        throw new AssertionError("accepted: " + body);
    }

    private interface Read {
        Message read() throws ProtocolException;
    }

    /** A message, or its error's code and text. */
    private static Object outcome(Read read) {
        try {
            return read.read();
        } catch (ProtocolException e) {
            return e.code() + ": " + e.getMessage();
        }
    }

    private static String replaceValue(String body, SplittableRandom random, String value) {
        List<int[]> spans = new ArrayList<>();
        for (int at = body.indexOf("\":"); at >= 0; at = body.indexOf("\":", at + 1)) {
            int start = at + 2;
            int end = start;
            while (end < body.length() && ",}]".indexOf(body.charAt(end)) < 0 && body.charAt(end) != '{'
                    && body.charAt(end) != '[') {
                end++;
            }
            spans.add(new int[] {start, end});
        }
        int[] span = spans.get(random.nextInt(spans.size()));
        return body.substring(0, span[0]) + value + body.substring(span[1]);
    }

    private static String field(SplittableRandom random) {
        String[] fields = {"type", "node_id", "resource_limits", "resource_usage", "running_jobs", "finished_jobs",
            "delta", "started_jobs", "job_id", "operation_id", "usage", "outcome", "exit_code", "error",
            "started_at_ms", "finished_at_ms", "user_slots", "cpu", "gpu", "memory", "network", "other"};
        return fields[random.nextInt(fields.length)];
    }

    private static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }

    static NodeHeartbeat heartbeat(SplittableRandom random) {
        List<RunningJob> running = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            running.add(new RunningJob(id(random), random.nextInt(4) == 0 ? null : id(random), finite(random),
                    random.nextInt(3) == 0 ? List.of("GPU-" + id(random), "GPU-" + id(random)) : List.of()));
        }
        List<FinishedJob> finished = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            FinishedJob.Outcome outcome = FinishedJob.Outcome.values()[random.nextInt(3)];
            finished.add(new FinishedJob(id(random), outcome, random.nextBoolean() ? null : random.nextInt(-300, 300),
                    random.nextBoolean() ? null : "err \"quoted\" é\n" + id(random), random.nextLong(0, Long.MAX_VALUE),
                    random.nextInt(0, 1 << 30)));
        }
        Resources usage = random.nextBoolean() ? finite(random) : Resources.ZERO;
        NodeHeartbeat heartbeat = switch (random.nextInt(3)) {
            case 0 -> new NodeHeartbeat(id(random), finite(random), usage, running, finished);
            case 1 -> NodeHeartbeat.delta(id(random), finite(random), usage, running, finished);
            default -> new NodeHeartbeat(id(random), finite(random), usage, running, finished, false, List.of());
        };
        if (random.nextBoolean()) {
            // the node's condition and its jobs' CPU, sometimes
            List<JobCpu> cpu = new ArrayList<>();
            for (int i = random.nextInt(3); i > 0; i--) {
                cpu.add(new JobCpu(id(random), random.nextInt(100_000) / 10.0, random.nextBoolean() ? -1 : random.nextInt(1000) / 4.0,
                        random.nextBoolean() ? -1 : random.nextInt(101) / 100.0));
            }
            heartbeat = heartbeat.withCondition(random.nextBoolean() ? null : random.nextLong(0, Long.MAX_VALUE),
                    random.nextBoolean() ? null : "disk full: \"" + id(random) + "\"",
                    random.nextBoolean() ? List.of() : List.of("gpu 1 (GPU-" + id(random) + "): check failed"))
                    .withJobCpu(cpu);
        }
        if (random.nextInt(3) == 0) {
            // jobs' statuses: an image's pull, a checkpoint
            List<JobStatus> status = new ArrayList<>();
            for (int i = random.nextInt(1, 4); i > 0; i--) {
                status.add(new JobStatus(id(random), random.nextBoolean() ? null : "pulling r/x:1 (\"" + id(random) + "\")",
                        random.nextBoolean() ? null : "sha256:" + id(random),
                        random.nextBoolean() ? null : random.nextLong(0, 1L << 40),
                        random.nextBoolean() ? null : random.nextLong(0, Long.MAX_VALUE)));
            }
            heartbeat = heartbeat.withJobStatus(status);
        }
        return heartbeat;
    }

    static HeartbeatReply reply(SplittableRandom random) {
        List<HeartbeatReply.JobToStart> start = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            Map<String, String> env = new HashMap<>();
            for (int e = random.nextInt(3); e > 0; e--) {
                env.put("K" + random.nextInt(100), "v=\"" + id(random) + "\"\t");
            }
            start.add(new HeartbeatReply.JobToStart(id(random), id(random), random.nextBoolean() ? null : "task",
                    random.nextInt(), random.nextBoolean() ? null : "echo 'ü' > /dev/null", env, resources(random),
                    random.nextBoolean() ? null : random.nextLong(0, 1L << 50),
                    random.nextBoolean() ? null : random.nextLong(0, 1L << 40),
                    random.nextBoolean() ? null : random.nextLong(0, 1L << 40)));
        }
        List<HeartbeatReply.JobToAbort> abort = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            abort.add(new HeartbeatReply.JobToAbort(id(random), random.nextBoolean() ? null : "operation_aborted",
                    random.nextBoolean() ? null : "aborted by \"alice\""));
        }
        List<HeartbeatReply.JobToInterrupt> interrupt = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            interrupt.add(new HeartbeatReply.JobToInterrupt(id(random), "starvation",
                    random.nextBoolean() ? null : id(random), random.nextBoolean() ? null : id(random),
                    random.nextLong(0, Long.MAX_VALUE), random.nextBoolean() ? null : "pool 'a' starves"));
        }
        Boolean resync = switch (random.nextInt(3)) {
            case 0 -> null;
            case 1 -> Boolean.TRUE;
            default -> Boolean.FALSE;
        };
        return new HeartbeatReply(start, abort, interrupt, random.nextLong(0, 100_000), resync);
    }

    private static String id(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> "op-" + random.nextInt(1000) + "-" + random.nextInt(1_000_000);
            case 1 -> "node-" + random.nextInt(50_000);
            case 2 -> "ünïcode-" + random.nextInt(10) + "-\u4e2d";
            default -> "id/with \"quotes\" and \\ " + random.nextInt(10);
        };
    }

    /** What a node reports: finite ("Infinity" travels as text, which is left to data binding). */
    private static Resources finite(SplittableRandom random) {
        Resources resources = resources(random);
        return resources.cpu() == Double.POSITIVE_INFINITY ? Resources.cpu(1) : resources.userSlots()
                + resources.gpu() + resources.memory() + resources.network() == Double.POSITIVE_INFINITY
                ? Resources.ZERO : resources;
    }

    private static Resources resources(SplittableRandom random) {
        double[] values = new double[5];
        for (int i = 0; i < 5; i++) {
            values[i] = switch (random.nextInt(5)) {
                case 0 -> 0;
                case 1 -> random.nextInt(1, 128);
                case 2 -> random.nextDouble() * 1e12;
                case 3 -> Double.POSITIVE_INFINITY;
                default -> Math.round(random.nextDouble() * 10000) / 100.0;
            };
        }
        return Resources.of(values);
    }
}
