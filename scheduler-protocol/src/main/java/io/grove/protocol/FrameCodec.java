package io.grove.protocol;

import io.netty.buffer.ByteBuf;
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
import java.util.List;

/**
 * The frame codec: a 4-byte big-endian length, then a JSON body of at most a maximum size. A frame
 * above the maximum is answered with {@link ErrorCode#FRAME_TOO_LARGE} and the connection is
 * closed; a body that is not a valid message becomes a {@link DecodeFailure} for the handler to
 * answer, and the connection goes on.
 */
public final class FrameCodec {

    private FrameCodec() {
    }

    /** Adds the codec to a pipeline, before the application's handler. */
    public static void install(ChannelPipeline pipeline, int maxFrameBytes) {
        pipeline.addLast("frames", new Frames(maxFrameBytes));
        pipeline.addLast("too-long", new TooLongHandler(maxFrameBytes));
        pipeline.addLast("length", new LengthFieldPrepender(4));
        pipeline.addLast("decoder", new Decoder());
        pipeline.addLast("encoder", new Encoder());
    }

    /** Splits the stream into frames; refuses a length above the maximum as soon as it is read. */
    static final class Frames extends LengthFieldBasedFrameDecoder {
        private final int max;

        Frames(int max) {
            super(max + 4, 0, 4, 0, 4, true);
            this.max = max;
        }

        @Override
        protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, java.nio.ByteOrder order) {
            long value = super.getUnadjustedFrameLength(buf, offset, length, order);
            if (value > max || value < 0) {
                throw new TooLongFrameException("length: " + value + " (expected: <= " + max + ")");
            }
            return value;
        }
    }

    /** JSON bytes to messages, or to failures. */
    static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
            byte[] body = ByteBufUtil.getBytes(frame);
            try {
                out.add(ProtocolJson.read(body));
            } catch (ProtocolException e) {
                out.add(new DecodeFailure(e));
            }
        }
    }

    /** Messages to JSON bytes. */
    static final class Encoder extends MessageToMessageEncoder<Message> {
        @Override
        protected void encode(ChannelHandlerContext ctx, Message message, List<Object> out) {
            out.add(ctx.alloc().buffer().writeBytes(ProtocolJson.write(message)));
        }
    }

    /** Answers an oversized frame with a typed error, then closes. */
    static final class TooLongHandler extends ChannelInboundHandlerAdapter {
        private final int max;

        TooLongHandler(int max) {
            this.max = max;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof TooLongFrameException tooLong) {
                String message = tooLong.getMessage() == null ? "frame above " + max + " bytes" : tooLong.getMessage();
                ctx.channel().writeAndFlush(new ErrorReply(ErrorCode.FRAME_TOO_LARGE, message, true))
                        .addListener(ChannelFutureListener.CLOSE);
            } else {
                ctx.fireExceptionCaught(cause);
            }
        }
    }
}
