package io.grove.core.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.IntegralGuaranteesSettings;
import io.grove.core.pool.OperationCountSettings;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The descent's shortcuts (skipping a node where nothing fits, deactivating whole subtrees whose
 * smallest job does not fit) change no decision: seeded random clusters — pools with limits and
 * FIFO pools, operations of several task shapes, nodes of several sizes, jobs ending — give the
 * same starts, aborts and idle reasons with and without them.
 */
class DescentShortcutsTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void seededClustersDecideTheSameWithAndWithoutShortcuts() {
        for (long seed = 1; seed <= 12; seed++) {
            List<String> with = run(seed, true);
            List<String> without = run(seed, false);
            assertEquals(without.size(), with.size(), "seed " + seed);
            for (int i = 0; i < with.size(); i++) {
                assertEquals(without.get(i), with.get(i), "seed " + seed + ", decision " + i);
            }
        }
    }

    private static List<String> run(long seed, boolean shortcuts) {
        return decisions(new SplittableRandom(seed), shortcuts ? ClusterSettings.DEFAULT
                : ClusterSettings.DEFAULT.withoutDescentShortcuts());
    }

    private static List<String> decisions(SplittableRandom random, ClusterSettings settings) {
        List<PoolConfig> top = new ArrayList<>();
        List<String> leaves = new ArrayList<>();
        for (int g = 0; g < 3; g++) {
            PoolConfig.Builder group = PoolConfig.builder("g" + g).weight(1 + random.nextInt(3));
            for (int l = 0; l < 1 + random.nextInt(4); l++) {
                String name = "g" + g + "l" + l;
                leaves.add(name);
                PoolConfig.Builder leaf = PoolConfig.builder(name).weight(1 + random.nextInt(4));
                if (random.nextInt(4) == 0) {
                    leaf.fifo();
                }
                if (random.nextInt(4) == 0) {
                    leaf.limits(io.grove.core.pool.PartialResources.of(io.grove.core.resource.ResourceType.CPU,
                            4 + random.nextInt(20)));
                }
                group.child(leaf);
            }
            top.add(group.build());
        }
        OperationCountSettings counts = new OperationCountSettings(1000, 1000, 1000, 1000, 1, true);
        PoolTreeConfig tree = new PoolTreeConfig("t", null, null, null, null, false, counts, null, null,
                IntegralGuaranteesSettings.DEFAULT, top);
        Cluster cluster = new Cluster(new PoolsConfig("t", Map.of("t", tree)), settings);
        int nodes = 5 + random.nextInt(10);
        List<Resources> sizes = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            Resources size = new Resources(8 + random.nextInt(24), 8 + random.nextInt(24), 0, (16 + random.nextInt(112)) * 1e9, 0);
            sizes.add(size);
            cluster.report(new Heartbeat("n" + n, Set.of(), size, Resources.ZERO, List.of(), List.of()), T0);
        }
        for (int o = 0; o < 10 + random.nextInt(40); o++) {
            OperationSpec.Builder spec = OperationSpec.builder().pool(leaves.get(random.nextInt(leaves.size())))
                    .weight(1 + random.nextInt(3));
            for (int t = 0; t < 1 + random.nextInt(3); t++) {
                Resources job = new Resources(1, 1 + random.nextInt(12), 0, (1 + random.nextInt(16)) * 1e9, 0);
                spec.task(TaskSpec.of("t" + t, 1 + random.nextInt(30), job, "true"));
            }
            cluster.submit("op-" + o, spec.build(), "u", T0);
        }
        List<String> out = new ArrayList<>();
        for (int round = 0; round < 8; round++) {
            cluster.updateFairShare(T0);
            for (int n = 0; n < nodes; n++) {
                List<Heartbeat.RunningJob> running = new ArrayList<>();
                List<Heartbeat.FinishedJob> finished = new ArrayList<>();
                for (Job job : cluster.node("n" + n).jobs()) {
                    if (random.nextInt(5) == 0) {
                        finished.add(new Heartbeat.FinishedJob(job.id(), Heartbeat.Outcome.COMPLETED, 0, null));
                    } else {
                        running.add(new Heartbeat.RunningJob(job.id(), job.resources()));
                    }
                }
                Decision decision = cluster.heartbeat(new Heartbeat("n" + n, Set.of(), sizes.get(n), Resources.ZERO,
                        running, finished), T0);
                out.add(decision.starts().stream().map(Decision.JobStart::jobId).toList() + " " + decision.aborts()
                        + " " + decision.preemptions() + " " + decision.idle());
            }
        }
        return out;
    }
}
