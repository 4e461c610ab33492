package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteesSettings;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fluent fixture for fair-share update tests:
 * {@code UpdateFixture.tree(pool("A"), pool("B")).total(C100).op("x", "A", demand).run()}.
 */
public final class UpdateFixture {

    /** 1 MiB, the unit of the reference tests' memory. */
    public static final double MB = 1024.0 * 1024.0;
    /** The reference tests' cluster: 100 slots, 100 CPU, 1000 MB. */
    public static final Resources C100 = new Resources(100, 100, 0, 1000 * MB, 0);

    private final List<PoolConfig> pools;
    private Resources total = C100;
    private final List<OperationDemand> operations = new ArrayList<>();
    private final Map<String, IntegralState> state = new HashMap<>();
    private Double elapsed;
    private IntegralGuaranteesSettings integral = IntegralGuaranteesSettings.DEFAULT;
    private boolean gangSteps;

    private UpdateFixture(List<PoolConfig> pools) {
        this.pools = pools;
    }

    public static UpdateFixture tree(PoolConfig.Builder... pools) {
        return new UpdateFixture(Arrays.stream(pools).map(PoolConfig.Builder::build).toList());
    }

    public static PoolConfig.Builder pool(String name) {
        return PoolConfig.builder(name);
    }

    /** Resources with slots, cpu and memory in MB, like the reference tests. */
    public static Resources res(double slots, double cpu, double memoryMb) {
        return new Resources(slots, cpu, 0, memoryMb * MB, 0);
    }

    public UpdateFixture total(Resources value) {
        this.total = value;
        return this;
    }

    public UpdateFixture op(String id, String pool, Resources demand) {
        operations.add(OperationDemand.of(id, pool, demand));
        return this;
    }

    public UpdateFixture op(OperationDemand operation) {
        operations.add(operation);
        return this;
    }

    public UpdateFixture volume(String pool, Resources volume) {
        state.put(pool, new IntegralState(volume, 0));
        return this;
    }

    public UpdateFixture state(Map<String, IntegralState> newState) {
        state.clear();
        state.putAll(newState);
        return this;
    }

    public UpdateFixture elapsed(double seconds) {
        this.elapsed = seconds;
        return this;
    }

    public UpdateFixture integral(IntegralGuaranteesSettings settings) {
        this.integral = settings;
        return this;
    }

    public UpdateFixture gangStepFunctions() {
        this.gangSteps = true;
        return this;
    }

    public FairShareInput input() {
        PoolTreeConfig tree = PoolTreeConfig.withPools("test", pools)
                .withIntegralGuarantees(integral)
                .withStepFunctionForGangOperations(gangSteps);
        return new FairShareInput(tree, total, operations, state, elapsed);
    }

    public FairShareResult run() {
        return FairShareUpdate.run(input());
    }
}
