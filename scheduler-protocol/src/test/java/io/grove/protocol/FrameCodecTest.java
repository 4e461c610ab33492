package io.grove.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.resource.Resources;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The frame codec without sockets. */
class FrameCodecTest {

    static EmbeddedChannel channel(int max) {
        EmbeddedChannel channel = new EmbeddedChannel();
        FrameCodec.install(channel.pipeline(), max);
        return channel;
    }

    static ByteBuf frame(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return Unpooled.buffer().writeInt(body.length).writeBytes(body);
    }

    static Message roundTrip(Message message) {
        EmbeddedChannel out = channel(1 << 20);
        out.writeOutbound(message);
        return decode(outbound(out));
    }

    /** Everything the channel wrote, as one buffer (the length prefix comes as its own buffer). */
    static ByteBuf outbound(EmbeddedChannel channel) {
        ByteBuf all = Unpooled.buffer();
        ByteBuf next;
        while ((next = channel.readOutbound()) != null) {
            all.writeBytes(next);
            next.release();
        }
        return all;
    }

    @Test
    void everyMessageSurvivesTheWire() {
        Resources limits = new Resources(8, 8, 0, 32e9, 0);
        List<Message> messages = List.of(
                new Handshake(1, "n1", "10.0.0.1:7078", List.of("ssd"), limits,
                        List.of(new RunningJob("op-1-1", "op-1", Resources.cpu(1))), null),
                new Welcome(1, "n1", 1000),
                new NodeHeartbeat("n1", limits, Resources.cpu(1), List.of(new RunningJob("op-1-1", "op-1", null)),
                        List.of(new FinishedJob("op-1-2", FinishedJob.Outcome.FAILED, 3, "boom", 10, 20))),
                new HeartbeatReply(List.of(new HeartbeatReply.JobToStart("op-1-3", "op-1", "main", 2, "echo hi",
                        Map.of("K", "V"), new Resources(1, 1, 0, 1e9, 0))),
                        List.of(new HeartbeatReply.JobToAbort("x", "unknown_job", "who?")),
                        List.of(new HeartbeatReply.JobToInterrupt("op-2-1", "starvation", "op-3", "op-3-1", 10_000, "m")),
                        1000),
                new ErrorReply(ErrorCode.INVALID_MESSAGE, "bad", false),
                NodeHeartbeat.delta("n1", limits, Resources.cpu(1), List.of(new RunningJob("op-1-4", "op-1", null)),
                        List.of()),
                new HeartbeatReply(List.of(), List.of(), List.of(), 1000, true));
        for (Message message : messages) {
            EmbeddedChannel out = channel(1 << 20);
            out.writeOutbound(message);
            EmbeddedChannel in = channel(1 << 20);
            in.writeInbound(outbound(out));
            Object read = in.readInbound();
            if (read instanceof DecodeFailure failure) {
                throw new AssertionError(message + ": " + failure.error().getMessage());
            }
            assertEquals(message, read);
        }
    }

    @Test
    void theWireFormatIsSnakeCaseJsonWithAType() {
        String json = new String(ProtocolJson.write(new Welcome(1, "n1", 500)), StandardCharsets.UTF_8);
        assertEquals("{\"type\":\"welcome\",\"protocol_version\":1,\"node_id\":\"n1\",\"heartbeat_period_ms\":500}", json);
        String error = new String(ProtocolJson.write(new ErrorReply(ErrorCode.FRAME_TOO_LARGE, "m", true)), StandardCharsets.UTF_8);
        assertEquals("{\"type\":\"error\",\"code\":\"frame_too_large\",\"message\":\"m\",\"fatal\":true}", error);
        String finished = new String(ProtocolJson.write(new NodeHeartbeat("n", Resources.ZERO, null, List.of(),
                List.of(new FinishedJob("j", FinishedJob.Outcome.COMPLETED, 0, null, 1, 2)))), StandardCharsets.UTF_8);
        assertTrue(finished.contains("\"outcome\":\"completed\""), finished);
    }

    @Test
    void version1MessagesLookAsTheyDidAndDeltasAreChecked() {
        String full = new String(ProtocolJson.write(new NodeHeartbeat("n", Resources.ZERO, null, List.of(), List.of())),
                StandardCharsets.UTF_8);
        assertTrue(!full.contains("delta") && !full.contains("started_jobs"), "a version 1 scheduler reads it: " + full);
        String reply = new String(ProtocolJson.write(new HeartbeatReply(List.of(), List.of(), List.of(), 5)),
                StandardCharsets.UTF_8);
        assertTrue(!reply.contains("resync"), "a version 1 agent reads it: " + reply);
        String delta = new String(ProtocolJson.write(NodeHeartbeat.delta("n", Resources.ZERO, null,
                List.of(new RunningJob("j", "op", null)), List.of())), StandardCharsets.UTF_8);
        assertTrue(delta.contains("\"delta\":true") && delta.contains("\"started_jobs\":[{\"job_id\":\"j\""), delta);
        DecodeFailure mixed = assertInstanceOf(DecodeFailure.class, decodeAny(frame("{\"type\": \"heartbeat\", "
                + "\"node_id\": \"n\", \"resource_limits\": {}, \"delta\": true, \"running_jobs\": "
                + "[{\"job_id\": \"j\"}]}")));
        assertTrue(mixed.error().getMessage().contains("a delta heartbeat lists 'started_jobs'"), mixed.error().getMessage());
    }

    @Test
    void aTruncatedFrameWaitsForTheRest() {
        EmbeddedChannel channel = channel(1024);
        ByteBuf whole = frame("{\"type\":\"welcome\",\"protocol_version\":1,\"node_id\":\"n1\",\"heartbeat_period_ms\":5}");
        channel.writeInbound(whole.readRetainedSlice(10));
        assertNull(channel.readInbound());
        channel.writeInbound(whole);
        assertEquals(new Welcome(1, "n1", 5), channel.readInbound());
    }

    @Test
    void anOversizedLengthIsRefusedAndTheConnectionClosed() {
        EmbeddedChannel channel = channel(1024);
        channel.writeInbound(Unpooled.buffer().writeInt(20_000_000).writeBytes(new byte[16]));
        ErrorReply error = (ErrorReply) decode(outbound(channel));
        assertEquals(ErrorCode.FRAME_TOO_LARGE, error.code());
        assertTrue(error.fatal());
        assertEquals("length: 20000000 (expected: <= 1024)", error.message());
        assertFalse(channel.isActive());
    }

    record Bad(String name, String json, ErrorCode code, String message) {
    }

    @Test
    void badBodiesBecomeTypedFailuresAndTheChannelGoesOn() {
        List<Bad> cases = List.of(
                new Bad("not json", "{not json", ErrorCode.MALFORMED_FRAME, "not JSON"),
                new Bad("no type", "{\"node_id\":\"n\"}", ErrorCode.INVALID_MESSAGE, "no 'type'"),
                new Bad("unknown type", "{\"type\":\"hello\"}", ErrorCode.UNKNOWN_MESSAGE_TYPE, "unknown message type 'hello'"),
                new Bad("missing field", "{\"type\":\"heartbeat\",\"resource_limits\":{\"cpu\":1}}", ErrorCode.INVALID_MESSAGE,
                        "'node_id' is required"),
                new Bad("negative resources", "{\"type\":\"heartbeat\",\"node_id\":\"n\",\"resource_limits\":{\"cpu\":-1}}",
                        ErrorCode.INVALID_MESSAGE, "cpu must be a non-negative number"),
                new Bad("unknown field", "{\"type\":\"welcome\",\"protocol_version\":1,\"node_id\":\"n\",\"heartbeat_period_ms\":1,\"x\":1}",
                        ErrorCode.INVALID_MESSAGE, "unknown field 'x'"),
                new Bad("wrong type of field", "{\"type\":\"welcome\",\"protocol_version\":\"one\",\"node_id\":\"n\",\"heartbeat_period_ms\":1}",
                        ErrorCode.INVALID_MESSAGE, "'protocol_version'"),
                new Bad("bad outcome", "{\"type\":\"heartbeat\",\"node_id\":\"n\",\"resource_limits\":{},\"finished_jobs\":[{\"job_id\":\"j\",\"outcome\":\"exploded\"}]}",
                        ErrorCode.INVALID_MESSAGE, "'outcome' is required"));
        EmbeddedChannel channel = channel(4096);
        for (Bad bad : cases) {
            channel.writeInbound(frame(bad.json()));
            DecodeFailure failure = assertInstanceOf(DecodeFailure.class, channel.readInbound(), bad.name());
            assertEquals(bad.code(), failure.error().code(), bad.name() + ": " + failure.error().getMessage());
            assertTrue(failure.error().getMessage().contains(bad.message()), bad.name() + ": " + failure.error().getMessage());
        }
        channel.writeInbound(frame("{\"type\":\"welcome\",\"protocol_version\":1,\"node_id\":\"n\",\"heartbeat_period_ms\":1}"));
        assertEquals(new Welcome(1, "n", 1), channel.readInbound());
        assertTrue(channel.isActive());
    }

    static Object decodeAny(ByteBuf bytes) {
        EmbeddedChannel in = channel(1 << 20);
        in.writeInbound(bytes);
        return in.readInbound();
    }

    static Message decode(ByteBuf bytes) {
        EmbeddedChannel in = channel(1 << 20);
        in.writeInbound(bytes);
        return in.readInbound();
    }
}
