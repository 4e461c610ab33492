package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteesConfig;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolPreemptionConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.SchedulingMode;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Generates valid pool trees with operations from a seed: a given number of pools over a given
 * depth, strong guarantees that fit into their parents, some burst and relaxed leaves, some limits
 * and FIFO leaves, and operations with mixed demands, usage and weights. Used by the seeded
 * invariant tests and by the benchmarks.
 */
public final class TreeGenerator {

    /**
     * What to generate.
     *
     * @param pools number of pools
     * @param operations number of operations
     * @param depth depth of the tree (pools under the root are at depth 1)
     * @param gangOperations whether some operations are gang operations
     */
    public record Shape(int pools, int operations, int depth, boolean gangOperations) {
    }

    private final SplittableRandom random;
    private final Shape shape;

    private TreeGenerator(long seed, Shape shape) {
        this.random = new SplittableRandom(seed);
        this.shape = shape;
    }

    /** A complete update input. */
    public static FairShareInput generate(long seed, Shape shape) {
        return new TreeGenerator(seed, shape).build();
    }

    /** A mutable pool while the tree is generated. */
    private static final class Draft {
        final String name;
        final int level;
        final List<Draft> children = new ArrayList<>();
        double guaranteeCpu;
        double weight = 1;
        boolean fifo;
        IntegralGuaranteesConfig integral;
        Double cpuLimit;

        Draft(String name, int level) {
            this.name = name;
            this.level = level;
        }

        PoolConfig toConfig() {
            List<PoolConfig> built = new ArrayList<>();
            for (Draft child : children) {
                built.add(child.toConfig());
            }
            PartialResources guarantee = guaranteeCpu > 0 ? PartialResources.of(ResourceType.CPU, guaranteeCpu) : null;
            PartialResources limits = cpuLimit == null ? null : PartialResources.of(ResourceType.CPU, cpuLimit);
            return new PoolConfig(name, weight, guarantee, limits, null, fifo ? SchedulingMode.FIFO : null, null,
                    null, integral, null, null, false, false, false, null, false, null, PoolPreemptionConfig.INHERIT,
                    built);
        }
    }

    private FairShareInput build() {
        List<List<Draft>> levels = levels();
        List<Draft> all = new ArrayList<>();
        levels.forEach(all::addAll);
        List<Draft> leaves = all.stream().filter(d -> d.children.isEmpty()).toList();

        List<OperationDemand> operations = new ArrayList<>();
        double[] demandSum = new double[ResourceType.COUNT];
        Map<String, Draft> operationPools = new HashMap<>();
        for (int i = 0; i < shape.operations(); i++) {
            Draft pool = random.nextInt(10) == 0 ? all.get(random.nextInt(all.size())) : leaves.get(random.nextInt(leaves.size()));
            if (!pool.children.isEmpty() && pool.fifo) {
                pool = leaves.get(random.nextInt(leaves.size()));
            }
            OperationDemand op = operation("op" + i, pool.name, pool.fifo);
            operations.add(op);
            operationPools.put(op.id(), pool);
            double[] d = op.demand().toArray();
            for (int r = 0; r < d.length; r++) {
                demandSum[r] += d[r];
            }
        }
        double load = 0.3 + random.nextDouble() * 1.2;
        Resources total = new Resources(Math.ceil(demandSum[0] / load) + 1, Math.ceil(demandSum[1] / load) + 1, 0,
                Math.ceil(demandSum[3] / load) + 1, 0);

        assignGuarantees(levels.get(0), total.cpu() * 0.6);
        Map<String, IntegralState> state = new HashMap<>();
        for (Draft leaf : leaves) {
            int kind = random.nextInt(20);
            if (kind == 0 && leaf.guaranteeCpu == 0 && !leaf.fifo) {
                leaf.integral = IntegralGuaranteesConfig.burst(cpu(total.cpu() * 0.01 * (1 + random.nextInt(3))),
                        cpu(total.cpu() * 0.02 * (1 + random.nextInt(5))));
            } else if (kind == 1 && leaf.guaranteeCpu == 0 && !leaf.fifo) {
                leaf.integral = IntegralGuaranteesConfig.relaxed(cpu(total.cpu() * 0.01 * (1 + random.nextInt(3))));
            }
            if (leaf.integral != null) {
                state.put(leaf.name, new IntegralState(total.times(random.nextDouble() * 600), random.nextDouble() * 0.05));
            }
        }
        for (Draft pool : all) {
            if (random.nextInt(10) == 0) {
                pool.cpuLimit = Math.max(pool.guaranteeCpu, Math.ceil(total.cpu() * (0.05 + random.nextDouble() * 0.5)));
            }
        }
        List<PoolConfig> pools = levels.get(0).stream().map(Draft::toConfig).toList();
        PoolTreeConfig tree = PoolTreeConfig.withPools("generated", pools)
                .withStepFunctionForGangOperations(shape.gangOperations());
        return new FairShareInput(tree, total, operations, state, 0.2 + random.nextDouble() * 60);
    }

    private List<List<Draft>> levels() {
        int depth = Math.max(1, shape.depth());
        double fanout = 1;
        while (geometric(fanout + 0.05, depth) <= shape.pools()) {
            fanout += 0.05;
        }
        List<List<Draft>> levels = new ArrayList<>();
        int made = 0;
        for (int level = 1; level <= depth && made < shape.pools(); level++) {
            int count = level == depth ? shape.pools() - made : (int) Math.min(shape.pools() - made, Math.round(Math.pow(fanout, level)));
            count = Math.max(1, count);
            List<Draft> current = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Draft draft = new Draft("p" + level + "_" + i, level);
                draft.weight = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : 1;
                if (level > 1) {
                    List<Draft> parents = levels.get(level - 2);
                    Draft parent = i < parents.size() ? parents.get(i) : parents.get(random.nextInt(parents.size()));
                    parent.children.add(draft);
                }
                current.add(draft);
            }
            levels.add(current);
            made += count;
        }
        // FIFO only for leaves.
        for (List<Draft> level : levels) {
            for (Draft draft : level) {
                draft.fifo = draft.children.isEmpty() && random.nextInt(shape.gangOperations() ? 4 : 10) == 0;
            }
        }
        return levels;
    }

    private static double geometric(double fanout, int depth) {
        double sum = 0;
        for (int level = 1; level <= depth; level++) {
            sum += Math.pow(fanout, level);
        }
        return sum;
    }

    /** Gives some pools strong guarantees that always fit into their parent's. */
    private void assignGuarantees(List<Draft> siblings, double budget) {
        double left = budget;
        for (Draft pool : siblings) {
            if (pool.fifo || left < 1 || random.nextInt(3) != 0) {
                continue;
            }
            double guarantee = Math.floor(left * (0.1 + random.nextDouble() * 0.4));
            if (guarantee < 1) {
                continue;
            }
            pool.guaranteeCpu = guarantee;
            left -= guarantee;
            assignGuarantees(pool.children, guarantee);
        }
    }

    /** In gang trees, half the operations of FIFO pools are gang operations (their jumps meet the FIFO order). */
    private OperationDemand operation(String id, String pool, boolean fifo) {
        int jobs = 1 + random.nextInt(50);
        double cpuPerJob = 1 + random.nextInt(8);
        double memoryPerJob = (1 + random.nextInt(16)) * (1L << 30);
        Resources demand = new Resources(jobs, jobs * cpuPerJob, 0, jobs * memoryPerJob, 0);
        int running = random.nextInt(3) == 0 ? random.nextInt(jobs + 1) : 0;
        Resources usage = new Resources(running, running * cpuPerJob, 0, running * memoryPerJob, 0);
        double weight = random.nextInt(4) == 0 ? 0.5 + random.nextInt(8) * 0.5 : 1;
        boolean gang = shape.gangOperations() && random.nextInt(fifo ? 2 : 8) == 0;
        return new OperationDemand(id, pool, weight, demand, usage, null, null, gang, null, random.nextInt(jobs + 1));
    }

    private static PartialResources cpu(double value) {
        Map<ResourceType, Double> values = new EnumMap<>(ResourceType.class);
        values.put(ResourceType.CPU, Math.max(1, Math.floor(value)));
        return new PartialResources(values);
    }
}
