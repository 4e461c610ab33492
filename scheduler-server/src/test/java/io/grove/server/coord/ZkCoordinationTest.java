package io.grove.server.coord;

import io.grove.server.coord.Coordination.Signal;
import io.grove.server.ha.CuttableProxy;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * ZooKeeper (in-process, through Curator) against the contract the in-memory twin passes, with the
 * schedulers' identity as production runs it.
 */
class ZkCoordinationTest extends CoordinationContract {

    TestingServer server;
    final List<AutoCloseable> opened = new ArrayList<>();
    final Map<Coordination, CuttableProxy> proxies = new HashMap<>();

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(true);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        server.close();
    }

    @Override
    Coordination member(String name, List<Signal> signals) throws Exception {
        CuttableProxy proxy = new CuttableProxy(new InetSocketAddress("127.0.0.1", server.getPort()));
        opened.add(proxy);
        ZkCoordination member = ZkCoordination.create(proxy.connectString(), LAYOUT, Duration.ofSeconds(2), name,
                ZkAuthTest.GROUP);
        opened.add(0, member);
        proxies.put(member, proxy);
        member.start(signals::add);
        return member;
    }

    @Override
    void cut(Coordination member) {
        proxies.get(member).cut();
    }

    /** ZooKeeper runs on the wall clock: waits poll it (io.grove.testing.Await), nothing to move. */
    @Override
    void settle() {
    }
}
