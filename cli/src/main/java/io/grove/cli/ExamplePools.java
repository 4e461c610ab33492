package io.grove.cli;

import io.grove.cli.out.Format;
import io.grove.core.resource.ResourceAmounts;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The example pools sized to the cluster {@code grove local} starts. The example is written for a
 * physical tree of {@link #CPU} cpu and {@link #MEMORY} bytes (its production pool's guarantee is
 * 40 of them); on a laptop of 2 cpu those guarantees are larger than the machine and one pool takes
 * everything. So every guarantee, flow and limit of cpu and memory is scaled by the local cluster's
 * share of that size, and each pool keeps its share of the cluster.
 */
final class ExamplePools {

    /** The cpu the example's physical tree is written for. */
    static final double CPU = 100;

    /** The memory the example's physical tree is written for (200 GiB). */
    static final double MEMORY = 200.0 * (1L << 30);

    /** The attributes that hold amounts of resources, at any depth of a pool. */
    private static final Set<String> AMOUNTS = Set.of("strong_guarantee_resources", "resource_limits",
            "burst_guarantee_resources", "resource_flow");

    private ExamplePools() {
    }

    /**
     * The example's text sized to a physical tree of {@code total}: the same trees and pools, their
     * cpu and memory amounts scaled (cpu to hundredths, at least one hundredth; memory to whole
     * bytes), with a header that says so.
     */
    static String sized(String example, Resources total) {
        LoaderOptions loading = new LoaderOptions();
        Object loaded = new Yaml(new SafeConstructor(loading)).load(example);
        if (!(loaded instanceof Map<?, ?> top)) {
            throw new IllegalArgumentException("the example pools file is not a mapping");
        }
        double cpu = total.cpu() / CPU;
        double memory = total.memory() / MEMORY;
        Object scaled = scale(top, null, cpu, memory);
        DumperOptions dumping = new DumperOptions();
        dumping.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        dumping.setIndent(2);
        dumping.setWidth(120);
        String body = new Yaml(new Representer(dumping), dumping).dump(scaled);
        return String.format(Locale.ROOT, "# The example pools sized by grove local to its agents: %s and %s"
                + " (the example is written for %.0f cpu and 200Gi;%n# every guarantee, flow and limit of cpu and memory is"
                + " scaled by %.4f and %.4f). Made afresh at each start;%n# to run your own pools, give"
                + " grove local --config FILE.%n", Format.cpu(total.cpu()), Format.bytes(total.memory()), CPU, cpu, memory)
                + body;
    }

    private static Object scale(Object node, String key, double cpu, double memory) {
        if (node instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            boolean amounts = key != null && AMOUNTS.contains(key);
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String name = String.valueOf(entry.getKey());
                Object value = entry.getValue();
                if (amounts && name.equals("cpu")) {
                    out.put(name, Math.max(0.01, Math.floor(ResourceAmounts.parse(ResourceType.CPU, number(value)) * cpu
                            * 100) / 100));
                } else if (amounts && (name.equals("memory") || name.equals("user_memory"))) {
                    out.put(name, (long) Math.max(1, Math.floor(ResourceAmounts.parse(ResourceType.MEMORY, number(value))
                            * memory)));
                } else {
                    out.put(entry.getKey(), scale(value, name, cpu, memory));
                }
            }
            return out;
        }
        if (node instanceof List<?> list) {
            return list.stream().map(item -> scale(item, null, cpu, memory)).toList();
        }
        return node;
    }

    /** A YAML scalar as {@link ResourceAmounts#parse} takes it: numbers as decimals, text as it is. */
    private static Object number(Object value) {
        return value instanceof Number n ? new BigDecimal(n.toString()) : String.valueOf(value);
    }
}
