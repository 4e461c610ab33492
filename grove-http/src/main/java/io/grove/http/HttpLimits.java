package io.grove.http;

import java.time.Duration;

/**
 * What one HTTP endpoint allows a client: connections in all and from one address, how long the
 * request head may take to arrive (from the connection's start, or the previous response on a
 * kept-alive connection), how long its body may take, how long a connection may sit idle, and how
 * large a body may be, and how many bytes of bodies all connections together may be receiving
 * (a request whose body does not fit gets {@code 503} and is not read). A connection over a cap is
 * closed at once; a request over a time limit gets {@code 408} (or, still in its head, just the close).
 */
public record HttpLimits(int maxConnections, int maxConnectionsPerAddress, Duration headerTimeout, Duration bodyTimeout,
        Duration idleTimeout, int maxBodyBytes, long maxBodyBytesInFlight) {

    /** As above, with room for 64 bodies of the largest size at once. */
    public HttpLimits(int maxConnections, int maxConnectionsPerAddress, Duration headerTimeout, Duration bodyTimeout,
            Duration idleTimeout, int maxBodyBytes) {
        this(maxConnections, maxConnectionsPerAddress, headerTimeout, bodyTimeout, idleTimeout, maxBodyBytes,
                64L * Math.max(maxBodyBytes, 1));
    }

    /** The scheduler's API. */
    public static final HttpLimits API = new HttpLimits(1024, 64, Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofSeconds(60), 1 << 20);
    /** The agent's endpoint: read-only, for the scheduler, monitoring and log followers. */
    public static final HttpLimits AGENT = new HttpLimits(256, 32, Duration.ofSeconds(10), Duration.ofSeconds(10),
            Duration.ofSeconds(60), 64 << 10);

    /** These limits with other connection caps (in all, and from one address: raise it for users behind one NAT address). */
    public HttpLimits withConnections(int total, int perAddress) {
        return new HttpLimits(total, perAddress, headerTimeout, bodyTimeout, idleTimeout, maxBodyBytes, maxBodyBytesInFlight);
    }

    public HttpLimits {
        if (maxConnections < 1 || maxConnectionsPerAddress < 1 || maxBodyBytes < 0 || maxBodyBytesInFlight < maxBodyBytes) {
            throw new IllegalArgumentException("connection caps must be positive, the body size not negative, and the "
                    + "bytes in flight at least one body");
        }
    }
}
