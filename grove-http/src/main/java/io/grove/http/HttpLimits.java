package io.grove.http;

import java.time.Duration;

/**
 * What one HTTP endpoint allows a client: connections in all and from one address, how long the
 * request head may take to arrive (from the connection's start, or the previous response on a
 * kept-alive connection), how long its body may take, how long a connection may sit idle, and how
 * large a body may be. A connection over a cap is closed at once; a request over a time limit gets
 * {@code 408} (or, still in its head, just the close).
 */
public record HttpLimits(int maxConnections, int maxConnectionsPerAddress, Duration headerTimeout, Duration bodyTimeout,
        Duration idleTimeout, int maxBodyBytes) {

    /** The scheduler's API. */
    public static final HttpLimits API = new HttpLimits(1024, 64, Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofSeconds(60), 1 << 20);
    /** The agent's endpoint: read-only, for the scheduler, monitoring and log followers. */
    public static final HttpLimits AGENT = new HttpLimits(256, 32, Duration.ofSeconds(10), Duration.ofSeconds(10),
            Duration.ofSeconds(60), 64 << 10);

    /** These limits with other connection caps (in all, and from one address: raise it for users behind one NAT address). */
    public HttpLimits withConnections(int total, int perAddress) {
        return new HttpLimits(total, perAddress, headerTimeout, bodyTimeout, idleTimeout, maxBodyBytes);
    }

    public HttpLimits {
        if (maxConnections < 1 || maxConnectionsPerAddress < 1 || maxBodyBytes < 0) {
            throw new IllegalArgumentException("connection caps must be positive and the body size not negative");
        }
    }
}
