package io.grove.cli;

import io.grove.core.node.NodeTopology;
import io.grove.core.resource.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real scheduler and agents for a test class ({@code grove local}'s cluster), started before its
 * tests on a pools file and a data directory of its own and closed after them:
 * {@code @RegisterExtension static final LocalClusterExtension CLUSTER = LocalClusterExtension.of(POOLS, 2);}
 */
final class LocalClusterExtension implements BeforeAllCallback, AfterAllCallback {

    private final String pools;
    private final int agents;
    private Resources each;
    private IntFunction<NodeTopology> topology = i -> NodeTopology.NONE;
    private IntFunction<List<String>> tags = i -> List.of();
    private Path dir;
    private LocalCommand.LocalCluster cluster;
    private String url;

    private LocalClusterExtension(String pools, int agents) {
        this.pools = pools;
        this.agents = agents;
        this.each = LocalCommand.LocalCluster.agentResources(agents);
    }

    /** {@code agents} agents of an equal part of the machine each, on the pools file {@code pools}. */
    static LocalClusterExtension of(String pools, int agents) {
        return new LocalClusterExtension(pools, agents);
    }

    /** Each agent offering {@code resources}. */
    LocalClusterExtension each(Resources resources) {
        this.each = resources;
        return this;
    }

    /** Agent {@code i} (from 1) saying it sits at {@code where.apply(i)}. */
    LocalClusterExtension topology(IntFunction<NodeTopology> where) {
        this.topology = where;
        return this;
    }

    /** Agent {@code i} (from 1) with the tags {@code of.apply(i)}. */
    LocalClusterExtension tags(IntFunction<List<String>> of) {
        this.tags = of;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("grove-cluster-test");
        Files.writeString(dir.resolve("pools.yaml"), pools);
        cluster = LocalCommand.LocalCluster.start(dir.resolve("pools.yaml"), dir.resolve("data"), agents, each, 0, 0,
                topology, tags);
        url = "http://127.0.0.1:" + cluster.httpPort();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (cluster != null) {
            cluster.close();
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    /** The scheduler's HTTP address, {@code http://127.0.0.1:PORT}. */
    String url() {
        return url;
    }

    /** The directory of the pools file ({@code pools.yaml}) and the data. */
    Path dir() {
        return dir;
    }

    /** Runs {@code grove ARGS} against the scheduler. */
    GroveCliTest.Run grove(String... args) {
        return GroveCliTest.groveAt(url, args);
    }
}
