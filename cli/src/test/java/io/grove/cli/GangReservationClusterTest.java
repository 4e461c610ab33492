package io.grove.cli;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.core.node.NodeTopology;
import io.grove.core.resource.Resources;
import io.grove.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reservations with backfill on a real scheduler and agent (docs/scheduling.md#reservations-with-backfill):
 * a gang that needs the whole 4-cpu node starves behind {@code bounded}'s jobs (20-s limit) and
 * {@code early}'s (which end after 8 s); nothing may be taken for it (jobs younger than an hour are
 * kept), so after {@code gang_reservation_timeout} it reserves the node. When {@code early}'s jobs
 * end, {@code short} (a 5-s limit) starts in their room and {@code long} (no limit) waits, said so by
 * {@code grove ops explain} and {@code grove nodes}; the gang starts when {@code bounded} reaches its
 * limit, by the reservation's predicted start.
 */
class GangReservationClusterTest {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                topology_levels: [rack]
                fair_share_starvation_timeout: 1s
                gang_reservation_timeout: 2s
                min_job_runtime_before_preemption: 1h
                allocation_graceful_preemption_timeout: 2s
                pools:
                  batch: {}
                  train: {}
            """;

    static final Duration EVERY = Duration.ofMillis(250);

    @RegisterExtension
    static final LocalClusterExtension CLUSTER = LocalClusterExtension.of(POOLS, 1)
            .each(new Resources(8, 4, 0, 2L << 30, 0))
            .topology(i -> NodeTopology.parse("rack=r1"));

    static GroveCliTest.Run grove(String... args) {
        return CLUSTER.grove(args);
    }

    static String submit(String... args) {
        List<String> all = new ArrayList<>(List.of("submit", "--memory", "64Mi"));
        all.addAll(List.of(args));
        GroveCliTest.Run run = grove(all.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.out() + run.err());
        return run.out().lines().findFirst().orElseThrow().strip();
    }

    static JsonNode json(String... args) {
        try {
            return new ObjectMapper().readTree(grove(args).out());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long running(String operation) {
        long count = 0;
        for (JsonNode job : json("jobs", "list", operation, "-o", "json")) {
            count += job.get("state").asText().equals("running") ? 1 : 0;
        }
        return count;
    }

    static JsonNode reservedFor() {
        JsonNode node = json("nodes", "-o", "json").get(0);
        return node.get("reserved_for");
    }

    /** The dashboard's nodes page names the gang holding the node, and the gang's page its reservation. */
    static void dashboardShows(String gang) {
        HeadlessChromium.inBrowser(page -> {
            page.navigate(CLUSTER.url() + "/ui/#/nodes");
            assertThat(page.locator("[data-test=nodes] tr[data-node=local-1] [data-test=reserved]")).hasText("gang " + gang);
            page.navigate(CLUSTER.url() + "/ui/#/operations/" + gang);
            assertThat(page.locator("body")).containsText("reserved rack r1 (local-1) since ");
        });
    }

    @Test
    void theGangReservesTheNodeShortJobsBackfillAndItStartsByThePredictedStart() throws Exception {
        String bounded = submit("--pool", "batch", "--jobs", "2", "--cpu", "1", "--time", "20s", "--", "sleep 600");
        String early = submit("--pool", "batch", "--jobs", "2", "--cpu", "1", "--time", "60s", "--", "sleep 8");
        Await.until("the node is full", EVERY, () -> running(bounded) == 2 && running(early) == 2);
        String gang = submit("--pool", "train", "--gang", "--topology", "required=rack", "--jobs", "2", "--cpu", "2",
                "--", "sleep 600");
        Await.until("the gang reserves the node", EVERY, () -> reservedFor() != null);
        JsonNode reservation = reservedFor();
        assertEquals(gang, reservation.get("operation_id").asText(), reservation.toString());
        assertEquals("rack r1", reservation.get("domain").asText());
        Instant predicted = Instant.parse(reservation.get("predicted_start").asText());
        String shown = grove("ops", "get", gang).out();
        assertTrue(shown.contains("reservation") && shown.contains("rack r1 (node local-1) since "
                + reservation.get("since").asText()), shown);

        dashboardShows(gang);

        String shortJob = submit("--pool", "batch", "--jobs", "1", "--cpu", "1", "--time", "5s", "--", "sleep 2");
        String longJob = submit("--pool", "batch", "--jobs", "1", "--cpu", "1", "--", "sleep 600");
        Await.until("short backfills early's room", EVERY,
                () -> json("ops", "get", shortJob, "-o", "json").get("state").asText().equals("completed"));
        assertEquals(0, running(longJob), "long has no time limit: it could still run at the gang's start");
        GroveCliTest.Run explain = grove("ops", "explain", longJob);
        assertTrue(explain.out().contains("reserved for starving gangs: node ") && explain.out().contains("for gang " + gang),
                explain.out());
        GroveCliTest.Run nodes = grove("nodes");
        assertTrue(nodes.out().contains("RESERVED FOR") && nodes.out().contains("is reserved for gang " + gang),
                nodes.out());

        Await.until("the gang starts", EVERY, () -> running(gang) == 2);
        Instant started = Instant.now();
        assertTrue(!started.isAfter(predicted.plus(Duration.ofSeconds(4))),
                "started " + started + ", predicted " + predicted);
        assertEquals(null, reservedFor(), "the reservation went with the gang's plan");
        assertEquals(0, running(longJob));
        for (String operation : List.of(gang, longJob, bounded, early)) {
            grove("ops", "abort", operation);
        }
    }
}
