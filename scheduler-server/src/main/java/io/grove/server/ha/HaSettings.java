package io.grove.server.ha;

import io.grove.server.coord.ZkAuth;
import io.grove.server.coord.ZkLayout;
import java.time.Duration;

/**
 * High availability on ZooKeeper.
 *
 * @param connect ZooKeeper's servers, {@code host:port[,host:port...]}
 * @param root where the group keeps its state ({@link ZkLayout})
 * @param sessionTimeout a leader that cannot reach ZooKeeper for two thirds of it steps down; after
 *     all of it a standby takes over
 * @param advertisedApi this scheduler's API as clients reach it, e.g. {@code http://10.0.0.1:8080}
 * @param advertisedNodes this scheduler's node endpoint as agents reach it, e.g. {@code 10.0.0.1:7077}
 * @param auth the schedulers' identity in ZooKeeper ({@code --zookeeper-auth-file}); {@code null} only
 *     for a group open to every client of the ensemble ({@code --insecure-local})
 */
public record HaSettings(String connect, String root, Duration sessionTimeout, String advertisedApi,
        String advertisedNodes, ZkAuth auth) {

    /** A group without authentication, open to every client of the ensemble (tests, --insecure-local). */
    public HaSettings(String connect, String root, Duration sessionTimeout, String advertisedApi, String advertisedNodes) {
        this(connect, root, sessionTimeout, advertisedApi, advertisedNodes, null);
    }

    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(6);

    public HaSettings {
        if (connect == null || connect.isBlank()) {
            throw new IllegalArgumentException("give ZooKeeper's servers as HOST:PORT[,HOST:PORT...]");
        }
        new ZkLayout(root);
        if (sessionTimeout.toMillis() < 2_000) {
            throw new IllegalArgumentException("a ZooKeeper session timeout below 2 s would make leaders step down "
                    + "on every hiccup; got " + sessionTimeout.toMillis() + " ms");
        }
    }

    public ZkLayout layout() {
        return new ZkLayout(root);
    }
}
