package io.grove.http;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps connections, in all and per client address, shared by every connection of one endpoint: a
 * connection over a cap is closed as soon as it is accepted, so no flood of clients can take the
 * process's file descriptors. Refusals are logged at most once a minute with their count.
 */
@ChannelHandler.Sharable
public final class ConnectionLimiter extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimiter.class);
    private static final long LOG_PERIOD_NANOS = 60_000_000_000L;

    private final String endpoint;
    private final int maxTotal;
    private final int maxPerAddress;
    private final AtomicInteger total = new AtomicInteger();
    /** Open connections per address; each update is atomic for its key. */
    private final ConcurrentHashMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_PERIOD_NANOS);

    public ConnectionLimiter(String endpoint, int maxTotal, int maxPerAddress) {
        this.endpoint = endpoint;
        this.maxTotal = maxTotal;
        this.maxPerAddress = maxPerAddress;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        InetAddress address = address(ctx);
        int all = total.incrementAndGet();
        int mine = perAddress.merge(address, 1, Integer::sum);
        ctx.channel().attr(Counted.KEY).set(new Counted(address));
        if (all > maxTotal || mine > maxPerAddress) {
            long count = refused.incrementAndGet();
            long now = System.nanoTime();
            long last = lastLog.get();
            if (now - last >= LOG_PERIOD_NANOS && lastLog.compareAndSet(last, now)) {
                LOG.warn("{}: connection from {} refused ({} open, {} from that address; caps {} and {}); {} refused so far",
                        endpoint, address, all, mine, maxTotal, maxPerAddress, count);
            }
            ctx.close();
            return;
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Counted counted = ctx.channel().attr(Counted.KEY).getAndSet(null);
        if (counted != null) {
            total.decrementAndGet();
            perAddress.computeIfPresent(counted.address(), (a, n) -> n <= 1 ? null : n - 1);
        }
        super.channelInactive(ctx);
    }

    /** Connections open now. */
    int open() {
        return total.get();
    }

    private static InetAddress address(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress()
                : InetAddress.getLoopbackAddress();
    }

    private record Counted(InetAddress address) {
        static final AttributeKey<Counted> KEY = AttributeKey.valueOf("grove-counted");
    }
}
