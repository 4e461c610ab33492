package io.grove.config.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.api.ApiJson;
import io.grove.api.OperationSpecBody;
import io.grove.api.Quantities;
import io.grove.api.Quantity;
import io.grove.config.LoadResult;
import io.grove.core.operation.Dependency;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.OperationSpec;
import io.grove.core.resource.ResourceType;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The spec record clients build and the daemon's strict loader agree: a spec with every component
 * of {@link OperationSpecBody} set is accepted whole, with the values it carries.
 */
class SpecBodyTest {

    @Test
    void everyComponentOfTheSpecRecordIsAKeyTheLoaderAccepts() {
        Quantities limits = new Quantities(Quantity.of(100), Quantity.of(40), Quantity.of(2), Quantity.of("64Gi"),
                Quantity.of(1000));
        OperationSpecBody.Task task = new OperationSpecBody.Task(100, "./work.sh", Quantity.of(1), Quantity.of("2Gi"),
                Quantity.of(1), Quantity.of(10), Map.of("MODE", "fast"), Quantity.of("10Gi"),
                "registry.example:5000/team/tool:1.2", "10m", "2h");
        OperationSpecBody body = new OperationSpecBody("map", "nightly etl", "etl", List.of("physical"),
                Map.of("physical", new OperationSpecBody.TreeOptions("etl", 2.0, limits, "ssd")), 1.5, limits, 10,
                "graceful", true, 0.8, "60s", limits, "ssd & !old", Map.of("required", "rack"), Map.of("main", task),
                List.of(new OperationSpecBody.DependencyBody("op-3", "finished")));
        assertEverythingSet(body);
        assertEverythingSet(body.schedulingOptionsPerPoolTree().get("physical"));
        assertEverythingSet(task);
        assertEverythingSet(limits);

        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(ApiJson.write(body), "the record");

        assertTrue(loaded.ok(), loaded.describe());
        OperationSpec spec = loaded.value();
        assertEquals("nightly etl", spec.title());
        assertEquals(1.5, spec.weight());
        assertEquals(10, spec.maxFailedJobCount());
        assertEquals(2L << 30, (long) spec.tasks().get("main").jobResources().get(ResourceType.MEMORY));
        assertEquals(60_000L, spec.preemption().fairShareStarvationTimeoutMillis());
        assertEquals(64L << 30, (long) spec.resourceLimits().get(ResourceType.MEMORY));
        assertEquals(new GangTopology("rack", true), spec.topology());
        assertEquals(Duration.ofHours(2), spec.tasks().get("main").timeLimit());
        assertEquals(List.of(new Dependency("op-3", Dependency.Condition.FINISHED)), spec.dependsOn());
    }

    private static void assertEverythingSet(Record record) {
        for (RecordComponent component : record.getClass().getRecordComponents()) {
            try {
                assertNotNull(component.getAccessor().invoke(record), component.getName() + " must be set in this test");
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }
}
