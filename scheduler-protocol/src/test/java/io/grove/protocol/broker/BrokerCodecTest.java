package io.grove.protocol.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.protocol.DecodeFailure;
import io.grove.protocol.ErrorCode;
import io.grove.protocol.FrameCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The broker's loopback protocol in the shared frame codec, without sockets. */
class BrokerCodecTest {

    static EmbeddedChannel channel() {
        EmbeddedChannel channel = new EmbeddedChannel();
        FrameCodec.install(channel.pipeline(), 1024, BrokerMessage.class,
                text -> new BrokerMessage.BrokerError("frame_too_large", text, true));
        return channel;
    }

    static ByteBuf frame(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return Unpooled.buffer().writeInt(body.length).writeBytes(body);
    }

    @Test
    void everyMessageSurvivesTheWire() {
        List<BrokerMessage> messages = List.of(
                new BrokerMessage.Submit(1, "compact", new BrokerMessage.Amounts(1.5, 1024L), "compaction_gen0", 3, "c"),
                new BrokerMessage.Update(1, new BrokerMessage.Amounts(null, 5L), "transaction", 0, true),
                new BrokerMessage.UpdateCookie(1, "d"), new BrokerMessage.Remove(2), new BrokerMessage.Finish(3),
                new BrokerMessage.Configure(new BrokerMessage.Amounts(10.0, null),
                        List.of(new BrokerMessage.Queue("q", 5, new BrokerMessage.Amounts(2.0, null))),
                        List.of(new BrokerMessage.TaskType("unknown", "q", 1000))),
                new BrokerMessage.Allocated(1, "c"), new BrokerMessage.TaskError(1, "task_in_fly", "running", null),
                new BrokerMessage.ConfigureResult(false, "no queues"), new BrokerMessage.BrokerError("x", "y", false));
        for (BrokerMessage message : messages) {
            EmbeddedChannel out = channel();
            out.writeOutbound(message);
            ByteBuf all = Unpooled.buffer();
            ByteBuf next;
            while ((next = out.readOutbound()) != null) {
                all.writeBytes(next);
                next.release();
            }
            EmbeddedChannel in = channel();
            in.writeInbound(all);
            assertEquals(message, in.readInbound());
        }
    }

    @Test
    void badFramesAreNamedAndTheConnectionGoesOn() {
        EmbeddedChannel in = channel();
        in.writeInbound(frame("{\"type\": \"submit\", \"task_id\": -1}"));
        DecodeFailure negative = assertInstanceOf(DecodeFailure.class, in.readInbound());
        assertTrue(negative.error().getMessage().contains("task_id"), negative.error().getMessage());
        in.writeInbound(frame("{\"type\": \"steal\"}"));
        DecodeFailure unknown = assertInstanceOf(DecodeFailure.class, in.readInbound());
        assertEquals(ErrorCode.UNKNOWN_MESSAGE_TYPE, unknown.error().code());
        assertTrue(unknown.error().getMessage().contains("submit, update, update_cookie"), unknown.error().getMessage());
        in.writeInbound(frame("{\"type\": \"submit\", \"resources\": {\"cpu\": -2}}"));
        DecodeFailure cpu = assertInstanceOf(DecodeFailure.class, in.readInbound());
        assertTrue(cpu.error().getMessage().contains("cpu must be a non-negative number"), cpu.error().getMessage());
        in.writeInbound(frame("{not json"));
        assertEquals(ErrorCode.MALFORMED_FRAME, ((DecodeFailure) in.readInbound()).error().code());
        assertTrue(in.isActive());
    }

    @Test
    void anOversizedFrameIsRefusedAndClosesTheConnection() {
        EmbeddedChannel in = channel();
        in.writeInbound(Unpooled.buffer().writeInt(5000).writeBytes(new byte[16]));
        ByteBuf all = Unpooled.buffer();
        ByteBuf next;
        while ((next = in.readOutbound()) != null) {
            all.writeBytes(next);
            next.release();
        }
        String written = all.toString(StandardCharsets.UTF_8);
        assertTrue(written.contains("\"frame_too_large\"") && written.contains("length: 5000 (expected: <= 1024)"), written);
        assertFalse(in.isActive());
    }
}
