package io.grove.server.ha;

import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.coord.Coordination;
import io.grove.server.coord.ZkLayout;
import io.grove.testing.Ports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The HA tests' one fixture: schedulers of a group sharing a pools file, each on ports it bound
 * ({@link Ports#bind}), with short periods and a 3-second session, on real ZooKeeper or on the
 * in-memory twin; every member is closed with the group.
 */
public final class HaGroup implements AutoCloseable {

    /** The session timeout of every member. */
    public static final Duration SESSION = Duration.ofSeconds(3);

    /** A scheduler of the group and where it answers. */
    public record Member(HaScheduler scheduler, String api, int nodePort) {
    }

    private final Path dir;
    private final Path pools;
    private final List<HaScheduler> members = new ArrayList<>();

    private HaGroup(Path dir, Path pools) {
        this.dir = dir;
        this.pools = pools;
    }

    /** A group whose members keep their data under {@code dir} and read {@code poolsYaml}. */
    public static HaGroup in(Path dir, String poolsYaml) throws IOException {
        return new HaGroup(dir, Files.writeString(dir.resolve("pools.yaml"), poolsYaml));
    }

    /** A member on the ZooKeeper ensemble at {@code connect}. */
    public Member join(String name, String connect) throws Exception {
        return start(name, pools, (settings, ha) -> HaScheduler.start(settings, Clock.SYSTEM, ha), connect);
    }

    /** A member on the in-memory twin, through {@code client}. */
    public Member join(String name, Coordination client) throws Exception {
        return join(name, client, null);
    }

    /** As above, reading its own pools file ({@code null}: the group's), to make one member differ. */
    public Member join(String name, Coordination client, String poolsYaml) throws Exception {
        Path own = poolsYaml == null ? pools : Files.writeString(dir.resolve(name + ".yaml"), poolsYaml);
        return start(name, own, (settings, ha) -> HaScheduler.start(settings, Clock.SYSTEM, ha, client,
                System::nanoTime), "twin");
    }

    private interface Starter {
        HaScheduler start(DaemonSettings settings, HaSettings ha) throws Exception;
    }

    private Member start(String name, Path config, Starter starter, String connect) throws Exception {
        Member member = Ports.bind(2, ports -> {
            int http = ports[0];
            int nodes = ports[1];
            DaemonSettings settings = DaemonSettings.defaults(config, dir.resolve(name))
                    .withPorts(nodes, http).withPeriods(Duration.ofMillis(200), Duration.ofMillis(100));
            String api = "http://127.0.0.1:" + http;
            HaSettings ha = new HaSettings(connect, ZkLayout.DEFAULT_ROOT, SESSION, api, "127.0.0.1:" + nodes);
            return new Member(starter.start(settings, ha), api, nodes);
        });
        members.add(member.scheduler());
        return member;
    }

    /** Closes every member (a closed one again is nothing). */
    @Override
    public void close() {
        members.forEach(HaScheduler::close);
    }
}
