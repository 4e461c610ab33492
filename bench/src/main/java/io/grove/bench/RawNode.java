package io.grove.bench;

import io.grove.http.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A simulated node that costs its driver as little as possible: its frames are written from
 * string templates and the replies are scanned for the few fields it needs (job ids to start and
 * to drop, and {@code resync}) instead of being decoded whole, so that one driver process can keep
 * ten thousand nodes heartbeating without taking the daemon's CPU. One request at a time.
 */
final class RawNode {

    /** What a reply says, as far as a simulated node cares. */
    record Reply(boolean ok, List<String[]> started, List<String> dropped, boolean resync, String text) {
    }

    private final Channel channel;
    private volatile CompletableFuture<Reply> pending;
    /** What the node does when the scheduler asks it to heartbeat now (protocol version 3). */
    volatile Runnable onPush = () -> { };

    private RawNode(Channel channel) {
        this.channel = channel;
    }

    static RawNode connect(EventLoopGroup group, String host, int port) throws InterruptedException {
        RawNode[] node = new RawNode[1];
        Channel channel = new Bootstrap().group(group).channel(Transport.socketChannel(group))
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(64 << 20, 0, 4, 0, 4));
                        ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
                                if (isPush(frame)) {
                                    node[0].onPush.run();
                                    return;
                                }
                                CompletableFuture<Reply> waiting = node[0].pending;
                                if (waiting != null) {
                                    waiting.complete(parse(frame.toString(StandardCharsets.UTF_8)));
                                }
                            }

                            @Override
                            public void channelInactive(ChannelHandlerContext ctx) {
                                CompletableFuture<Reply> waiting = node[0].pending;
                                if (waiting != null) {
                                    waiting.completeExceptionally(new IllegalStateException("connection closed"));
                                }
                            }
                        });
                    }
                }).connect(host, port).sync().channel();
        node[0] = new RawNode(channel);
        return node[0];
    }

    CompletableFuture<Reply> send(String json) {
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        pending = reply;
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = channel.alloc().buffer(4 + body.length).writeInt(body.length).writeBytes(body);
        channel.writeAndFlush(frame);
        return reply;
    }

    void close() {
        channel.close();
    }

    private static final byte[] PUSH = "{\"type\":\"heartbeat_now\"".getBytes(StandardCharsets.UTF_8);

    /** Whether a frame is the scheduler's unasked {@code heartbeat_now}, not a reply. */
    private static boolean isPush(ByteBuf frame) {
        if (frame.readableBytes() < PUSH.length || frame.readableBytes() > 64) {
            return false;
        }
        for (int i = 0; i < PUSH.length; i++) {
            if (frame.getByte(frame.readerIndex() + i) != PUSH[i]) {
                return false;
            }
        }
        return true;
    }

    /** A handshake of protocol {@code version} (2: deltas; 3: deltas, and the scheduler may ask for a heartbeat now). */
    static String handshake(String nodeId, String limits, int version) {
        return handshake(nodeId, limits, version, null);
    }

    /** The same at {@code topology}, a JSON object of level to domain ({@code null}: none). */
    static String handshake(String nodeId, String limits, int version, String topology) {
        return "{\"type\":\"handshake\",\"protocol_version\":" + version + ",\"node_id\":\"" + nodeId
                + "\",\"resource_limits\":" + limits + (topology == null ? "" : ",\"topology\":" + topology) + "}";
    }

    /** A heartbeat: the full list ({@code full}) or a delta of {@code jobs}, and the jobs that completed. */
    static String heartbeat(String nodeId, String limits, boolean full, List<String[]> jobs, List<String> finished) {
        StringBuilder out = new StringBuilder(256).append("{\"type\":\"heartbeat\",\"node_id\":\"").append(nodeId)
                .append("\",\"resource_limits\":").append(limits).append(full ? ",\"running_jobs\":[" : ",\"started_jobs\":[");
        for (int i = 0; i < jobs.size(); i++) {
            out.append(i == 0 ? "" : ",").append("{\"job_id\":\"").append(jobs.get(i)[0]).append("\",\"operation_id\":\"")
                    .append(jobs.get(i)[1]).append("\"}");
        }
        out.append("],\"finished_jobs\":[");
        for (int i = 0; i < finished.size(); i++) {
            out.append(i == 0 ? "" : ",").append("{\"job_id\":\"").append(finished.get(i))
                    .append("\",\"outcome\":\"completed\",\"exit_code\":0,\"started_at_ms\":0,\"finished_at_ms\":0}");
        }
        return out.append(full ? "]}" : "],\"delta\":true}").toString();
    }

    /** Scans a reply for the ids of jobs to start (with their operations) and to drop. */
    static Reply parse(String text) {
        if (!text.startsWith("{\"type\":\"heartbeat_reply\"") && !text.startsWith("{\"type\":\"welcome\"")) {
            return new Reply(false, List.of(), List.of(), false, text);
        }
        List<String[]> started = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        int starts = text.indexOf("\"jobs_to_start\":[");
        int aborts = text.indexOf("\"jobs_to_abort\":[");
        int end = text.indexOf("\"next_heartbeat_ms\"");
        if (starts >= 0 && aborts > starts) {
            for (int at = text.indexOf("{\"job_id\":\"", starts); at >= 0 && at < aborts;
                    at = text.indexOf("{\"job_id\":\"", at + 1)) {
                String job = field(text, at, "job_id");
                String operation = field(text, at, "operation_id");
                started.add(new String[] {job, operation});
            }
        }
        if (aborts >= 0 && end > aborts) {
            for (int at = text.indexOf("{\"job_id\":\"", aborts); at >= 0 && at < end;
                    at = text.indexOf("{\"job_id\":\"", at + 1)) {
                dropped.add(field(text, at, "job_id"));
            }
        }
        return new Reply(true, started, dropped, text.contains("\"resync\":true"), null);
    }

    private static String field(String text, int from, String name) {
        String key = "\"" + name + "\":\"";
        int start = text.indexOf(key, from) + key.length();
        return text.substring(start, text.indexOf('"', start));
    }
}
