package io.grove.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Caps connections, in all and per client address, shared by every connection of one endpoint,
 * so no flood of clients can take the process's file descriptors. A connection is untrusted until
 * it proves itself ({@link #trust}: an authenticated request, a node's handshake). When a new one
 * comes over the cap in all, the oldest untrusted one is shed to make room; only when every
 * connection is trusted is the new one refused. So half-sent requests from a few addresses cannot
 * keep the users out. With a grace, a connection younger than it is never shed (a client gets that
 * long to prove itself however fast others connect): when every untrusted one is younger, the new
 * one is refused. A connection over its address's cap is closed as soon as it is accepted.
 * Refusals are logged at most once a minute with their count.
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
    /** Untrusted connections, oldest first, with when each was accepted ({@link #ticker}). */
    private final LinkedHashMap<Channel, Long> untrusted = new LinkedHashMap<>();
    private final long graceNanos;
    private final LongSupplier ticker;
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong shed = new AtomicLong();
    private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_PERIOD_NANOS);

    public ConnectionLimiter(String endpoint, int maxTotal, int maxPerAddress) {
        this(endpoint, maxTotal, maxPerAddress, 0, System::nanoTime);
    }

    /** A limiter that never sheds a connection younger than {@code graceNanos} of {@code ticker}. */
    public ConnectionLimiter(String endpoint, int maxTotal, int maxPerAddress, long graceNanos, LongSupplier ticker) {
        this.endpoint = endpoint;
        this.maxTotal = maxTotal;
        this.maxPerAddress = maxPerAddress;
        this.graceNanos = graceNanos;
        this.ticker = ticker;
    }

    /** The connection has proved itself: it is shed no more to make room for others. */
    public static void trust(Channel channel) {
        Counted counted = channel.attr(Counted.KEY).get();
        if (counted != null) {
            counted.limiter().trusted(channel);
        }
    }

    private void trusted(Channel channel) {
        synchronized (untrusted) {
            untrusted.remove(channel);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        InetAddress address = address(ctx);
        int all = total.incrementAndGet();
        int mine = perAddress.merge(address, 1, Integer::sum);
        ctx.channel().attr(Counted.KEY).set(new Counted(this, address));
        Channel victim = null;
        long now = ticker.getAsLong();
        if (mine <= maxPerAddress && all > maxTotal) {
            synchronized (untrusted) {
                var oldest = untrusted.entrySet().iterator();
                if (oldest.hasNext()) {
                    var first = oldest.next();
                    if (now - first.getValue() >= graceNanos) {
                        victim = first.getKey();
                        oldest.remove();
                    }
                }
            }
        }
        if (mine > maxPerAddress || all > maxTotal && victim == null) {
            long count = refused.incrementAndGet();
            log("{}: connection from {} refused ({} open, {} from that address; caps {} and {}); {} refused so far",
                    endpoint, address, all, mine, maxTotal, maxPerAddress, count);
            ctx.close();
            return;
        }
        if (victim != null) {
            long count = shed.incrementAndGet();
            log("{}: {} open, the cap is {}: shed the oldest connection that has not proved itself, from {}; {} shed so far",
                    endpoint, all, maxTotal, victim.remoteAddress(), count);
            victim.close();
        }
        synchronized (untrusted) {
            untrusted.put(ctx.channel(), now);
        }
        super.channelActive(ctx);
    }

    private void log(String format, Object... arguments) {
        long now = System.nanoTime();
        long last = lastLog.get();
        if (now - last >= LOG_PERIOD_NANOS && lastLog.compareAndSet(last, now)) {
            LOG.warn(format, arguments);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Counted counted = ctx.channel().attr(Counted.KEY).getAndSet(null);
        if (counted != null) {
            total.decrementAndGet();
            perAddress.computeIfPresent(counted.address(), (a, n) -> n <= 1 ? null : n - 1);
            trusted(ctx.channel());
        }
        super.channelInactive(ctx);
    }

    /** Connections open now. */
    int open() {
        return total.get();
    }

    /** Connections shed so far to make room for newer ones. */
    public long shed() {
        return shed.get();
    }

    private static InetAddress address(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress()
                : InetAddress.getLoopbackAddress();
    }

    private record Counted(ConnectionLimiter limiter, InetAddress address) {
        static final AttributeKey<Counted> KEY = AttributeKey.valueOf("grove-counted");
    }
}
