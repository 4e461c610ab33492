package io.grove.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.MessageToMessageEncoder;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.Function;

/**
 * The frame codec: a 4-byte big-endian length, then a JSON body of at most a maximum size. A frame
 * above the maximum is answered with {@link ErrorCode#FRAME_TOO_LARGE} and the connection is
 * closed; a body that is not a valid message becomes a {@link DecodeFailure} for the handler to
 * answer, and the connection goes on.
 */
public final class FrameCodec {

    private FrameCodec() {
    }

    /** Adds the node protocol's codec to a pipeline, before the application's handler. */
    public static void install(ChannelPipeline pipeline, int maxFrameBytes) {
        install(pipeline, maxFrameBytes, Message.class,
                text -> new ErrorReply(ErrorCode.FRAME_TOO_LARGE, text, true));
    }

    /**
     * Adds the codec of a protocol whose messages are subtypes of {@code root} (the node protocol,
     * or the broker's loopback protocol).
     *
     * @param tooLarge the fatal reply to a frame above the maximum, given the reason
     */
    public static void install(ChannelPipeline pipeline, int maxFrameBytes, Class<?> root,
            Function<String, Object> tooLarge) {
        pipeline.addLast("frames", new Frames(maxFrameBytes));
        pipeline.addLast("too-long", new TooLongHandler(maxFrameBytes, tooLarge));
        pipeline.addLast("length", new LengthFieldPrepender(4));
        pipeline.addLast("decoder", new Decoder(root));
        pipeline.addLast("encoder", new Encoder(root));
    }

    /** Splits the stream into frames; refuses a length above the maximum as soon as it is read. */
    static final class Frames extends LengthFieldBasedFrameDecoder {
        private final int max;

        Frames(int max) {
            super(max + 4, 0, 4, 0, 4, true);
            this.max = max;
        }

        @Override
        protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
            long value = super.getUnadjustedFrameLength(buf, offset, length, order);
            if (value > max || value < 0) {
                throw new TooLongFrameException("length: " + value + " (expected: <= " + max + ")");
            }
            return value;
        }
    }

    /** JSON bytes to messages, or to failures. */
    static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
        private final Class<?> root;

        Decoder(Class<?> root) {
            this.root = root;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
            byte[] body = ByteBufUtil.getBytes(frame);
            try {
                out.add(ProtocolJson.read(body, root));
            } catch (ProtocolException e) {
                out.add(new DecodeFailure(e));
            }
        }
    }

    /** Messages to JSON bytes. */
    static final class Encoder extends MessageToMessageEncoder<Object> {
        private final Class<?> root;

        Encoder(Class<?> root) {
            this.root = root;
        }

        @Override
        public boolean acceptOutboundMessage(Object message) {
            return root.isInstance(message);
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, Object message, List<Object> out) {
            ByteBuf body = ctx.alloc().buffer();
            try {
                ProtocolJson.writeValue(message, new ByteBufOutputStream(body));
            } catch (RuntimeException e) {
                body.release();
                throw e;
            }
            out.add(body);
        }
    }

    /** Answers an oversized frame with a typed error, then closes. */
    static final class TooLongHandler extends ChannelInboundHandlerAdapter {
        private final int max;
        private final Function<String, Object> reply;

        TooLongHandler(int max, Function<String, Object> reply) {
            this.max = max;
            this.reply = reply;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof TooLongFrameException tooLong) {
                String message = tooLong.getMessage() == null ? "frame above " + max + " bytes" : tooLong.getMessage();
                ctx.channel().writeAndFlush(reply.apply(message))
                        .addListener(ChannelFutureListener.CLOSE);
            } else {
                ctx.fireExceptionCaught(cause);
            }
        }
    }
}
