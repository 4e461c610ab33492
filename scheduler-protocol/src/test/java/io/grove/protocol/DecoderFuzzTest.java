package io.grove.protocol;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.resource.Resources;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random bytes and random mutations of valid frames thrown at the decoder: it never throws, every
 * frame gives a message or a typed failure, and an oversized length closes the channel with a
 * typed error. Seeds are in the test names.
 */
class DecoderFuzzTest {

    private static final byte[] VALID = ProtocolJson.write(new NodeHeartbeat("n1", new Resources(4, 4, 0, 8e9, 0),
            Resources.cpu(1), List.of(new RunningJob("op-1-1", "op-1", Resources.cpu(1))),
            List.of(new FinishedJob("op-1-2", FinishedJob.Outcome.COMPLETED, 0, null, 1, 2))));

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void mutationsOfValidFrames(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        EmbeddedChannel channel = FrameCodecTest.channel(64 * 1024);
        for (int i = 0; i < 500; i++) {
            byte[] body = VALID.clone();
            int edits = 1 + random.nextInt(4);
            for (int e = 0; e < edits; e++) {
                body[random.nextInt(body.length)] = (byte) random.nextInt(256);
            }
            channel.writeInbound(Unpooled.buffer().writeInt(body.length).writeBytes(body));
            Object out = channel.readInbound();
            assertTrue(out instanceof Message || out instanceof DecodeFailure,
                    "seed " + seed + " frame " + i + ": " + out + " from " + new String(body, StandardCharsets.UTF_8));
        }
        assertTrue(channel.isActive());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14})
    void randomBytes(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 200; i++) {
            EmbeddedChannel channel = FrameCodecTest.channel(4096);
            byte[] noise = new byte[random.nextInt(1, 200)];
            for (int b = 0; b < noise.length; b++) {
                noise[b] = (byte) random.nextInt(256);
            }
            channel.writeInbound(Unpooled.wrappedBuffer(noise));
            Object out;
            while ((out = channel.readInbound()) != null) {
                assertTrue(out instanceof Message || out instanceof DecodeFailure, "seed " + seed + ": " + out);
            }
            if (!channel.isActive()) {
                ErrorReply error = (ErrorReply) FrameCodecTest.decode(FrameCodecTest.outbound(channel));
                assertTrue(error.code() == ErrorCode.FRAME_TOO_LARGE && error.fatal(), "seed " + seed + ": " + error);
            }
            channel.finishAndReleaseAll();
        }
    }
}
