package io.grove.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The promises checked after every fault: nothing counted twice, no index run twice at once. */
final class Invariants {

    private Invariants() {
    }

    /**
     * The operation completed with exactly one completed attempt per index, and every completed
     * attempt left its side effect.
     */
    static void completedOnce(GroveCluster cluster, String op, int jobs) throws Exception {
        JsonNode view = cluster.operation(op);
        assertEquals("completed", view.get("state").asText(), view.toString());
        assertEquals(jobs, view.get("progress").get("completed").asInt(), view.toString());
        List<JsonNode> completed = new ArrayList<>();
        for (JsonNode attempt : cluster.attempts(op)) {
            if (attempt.get("state").asText().equals("completed")) {
                completed.add(attempt);
            }
        }
        Set<Integer> indexes = completed.stream().map(a -> a.get("index").asInt()).collect(Collectors.toSet());
        assertEquals(jobs, completed.size(), "one completed attempt per index");
        assertEquals(jobs, indexes.size(), "no index completed twice");
        Set<String> effects = cluster.effects().stream().map(GroveCluster.Effect::jobId).collect(Collectors.toSet());
        for (JsonNode attempt : completed) {
            assertTrue(effects.contains(attempt.get("id").asText()), "completed attempt " + attempt.get("id")
                    + " left its side effect");
        }
    }

    /** No two attempts of the same index of an operation ran at the same time. */
    static void neverTwiceAtOnce(GroveCluster cluster) throws Exception {
        Map<String, List<GroveCluster.Effect>> byIndex = cluster.effects().stream()
                .collect(Collectors.groupingBy(e -> e.operation() + "/" + e.index()));
        for (Map.Entry<String, List<GroveCluster.Effect>> entry : byIndex.entrySet()) {
            List<GroveCluster.Effect> runs = new ArrayList<>(entry.getValue());
            runs.sort(Comparator.comparingLong(GroveCluster.Effect::start));
            for (int i = 1; i < runs.size(); i++) {
                assertTrue(runs.get(i).start() >= runs.get(i - 1).end(), entry.getKey() + " ran twice at once: "
                        + runs.get(i - 1) + " and " + runs.get(i));
            }
        }
    }
}
