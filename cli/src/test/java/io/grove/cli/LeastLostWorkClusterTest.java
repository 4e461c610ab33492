package io.grove.cli;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.core.resource.Resources;
import io.grove.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Least lost work on a real scheduler and two agents (docs/scheduling.md#least-lost-work): {@code early}'s
 * jobs run on the first agent, {@code late}'s, started after them, on the second; an operation
 * starving for one job (aggressively: each of the others' second job is above a fifth of its fair
 * share) takes a job of {@code late} — the younger, whichever agent heartbeats first — unless
 * {@code early}'s jobs report checkpoints by touching {@code $GROVE_CHECKPOINT_FILE}, and then one of
 * theirs. The lost work is in the victim's view, the metrics and {@code grove usage}.
 */
class LeastLostWorkClusterTest {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                fair_share_starvation_timeout: 3s
                enable_aggressive_starvation: true
                fair_share_aggressive_starvation_timeout: 3s
                preemptive_scheduling_backoff: 2s
                pools:
                  batch:
                    pools:
                      on_first: {scheduling_tag_filter: first}
                      on_second: {scheduling_tag_filter: second}
                  urgent: {}
            """;

    /** How often conditions are polled: each poll is a command, with its own connection. */
    static final java.time.Duration EVERY = java.time.Duration.ofMillis(250);

    @RegisterExtension
    static final LocalClusterExtension CLUSTER = LocalClusterExtension.of(POOLS, 2)
            .each(new Resources(8, 2, 0, 2L << 30, 0))
            .tags(i -> List.of(i == 1 ? "first" : "second"));

    static GroveCliTest.Run grove(String... args) {
        return CLUSTER.grove(args);
    }

    static String submit(String pool, int jobs, String command) {
        GroveCliTest.Run run = grove("submit", "--pool", pool, "--jobs", Integer.toString(jobs), "--cpu", "1", "--memory",
                "64Mi", "--", command);
        assertEquals(0, run.exitCode(), run.out() + run.err());
        return run.out().lines().findFirst().orElseThrow().strip();
    }

    static List<JsonNode> jobs(String operation) {
        List<JsonNode> out = new ArrayList<>();
        try {
            new ObjectMapper().readTree(grove("jobs", "list", operation, "-o", "json").out()).forEach(out::add);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    static long running(String operation) {
        return jobs(operation).stream().filter(j -> j.get("state").asText().equals("running")).count();
    }

    /**
     * The job starvation preemption took first, among {@code operations}' jobs: the earliest taken,
     * and of those taken at the same instant (one batch of heartbeats), the one taken for hurry's
     * first job.
     */
    static JsonNode firstVictim(String hurry, String... operations) {
        JsonNode first = null;
        for (String operation : operations) {
            for (JsonNode job : jobs(operation)) {
                JsonNode why = job.get("preempted_for");
                if (why != null && why.get("operation_id").asText().equals(hurry) && (first == null || before(job, first))) {
                    first = job;
                }
            }
        }
        assertTrue(first != null, "a job was taken for " + hurry + ": " + java.util.Arrays.stream(operations)
                .map(LeastLostWorkClusterTest::jobs).toList() + " hurry: " + jobs(hurry));
        return first;
    }

    private static boolean before(JsonNode job, JsonNode other) {
        Instant at = Instant.parse(job.get("finished_at").asText());
        Instant otherAt = Instant.parse(other.get("finished_at").asText());
        return at.isBefore(otherAt) || at.equals(otherAt)
                && preemptor(job).compareTo(preemptor(other)) < 0;
    }

    /** The number of the preemptor's job, from {@code preempted for job op-3-1 of ...}. */
    private static Integer preemptor(JsonNode job) {
        String message = job.get("message").asText();
        String id = message.substring("preempted for job ".length(), message.indexOf(' ', "preempted for job ".length()));
        return Integer.valueOf(id.substring(id.lastIndexOf('-') + 1));
    }

    /** early on the first agent, then late on the second, then hurry starving in urgent; returns hurry's first victim. */
    static JsonNode scenario(String earlyCommand) throws Exception {
        String early = submit("on_first", 2, earlyCommand);
        Await.until("early's jobs run", EVERY, () -> running(early) == 2);
        String late = submit("on_second", 2, "sleep 600");
        Await.until("late's jobs run", EVERY, () -> running(late) == 2);
        String hurry = submit("urgent", 1, "sleep 600");
        Await.until("hurry takes room", EVERY, () -> running(hurry) > 0);
        JsonNode victim = firstVictim(hurry, early, late);
        for (String operation : List.of(hurry, early, late)) {
            grove("ops", "abort", operation);
        }
        Await.until("the agents are empty", EVERY, () -> {
            for (String operation : List.of(hurry, early, late)) {
                if (running(operation) > 0) {
                    return false;
                }
            }
            return true;
        });
        victim = ((com.fasterxml.jackson.databind.node.ObjectNode) victim).put("early", early).put("late", late);
        return victim;
    }

    @Test
    void theYoungerJobsAreTakenUnlessTheOlderOnesCheckpoint() throws Exception {
        JsonNode taken = scenario("sleep 600");
        HeadlessChromium.inBrowser(page -> {
            page.navigate(CLUSTER.url() + "/ui/#/operations/" + taken.get("operation_id").asText());
            assertThat(page.locator("[data-test=jobs] [data-test=lost-work]")
                    .first()).containsText(" — lost ");
        });
        assertEquals(taken.get("late").asText(), taken.get("operation_id").asText(),
                "the job that started last loses the least: " + taken);
        assertEquals("aggressive_starvation", taken.get("preempted_for").get("reason").asText(), taken.toString());
        assertTrue(taken.get("lost_work_seconds").asDouble() >= 3, "it lost the work since its start: " + taken);
        assertTrue(taken.get("message").asText().contains("(no checkpoint reported)"), taken.toString());

        JsonNode checkpointed = scenario("while true; do touch \"$GROVE_CHECKPOINT_FILE\"; sleep 0.2; done");
        assertEquals(checkpointed.get("early").asText(), checkpointed.get("operation_id").asText(),
                "the older jobs checkpoint, so one of theirs loses less: " + checkpointed + " early's: "
                        + jobs(checkpointed.get("early").asText()));
        assertTrue(checkpointed.has("last_checkpoint"), checkpointed.toString());
        assertTrue(checkpointed.get("lost_work_seconds").asDouble() < 2.5,
                "only the work since its last checkpoint is lost: " + checkpointed);

        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(CLUSTER.url() + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(metrics.body().contains("grove_preempted_work_seconds_total{pool=\"on_second\",resource=\"cpu\",tree=\"physical\"}"),
                metrics.body().lines().filter(l -> l.contains("preempted_work")).toList().toString());
        Await.until("grove usage shows the lost work", EVERY, () -> {
            GroveCliTest.Run usage = grove("usage", "--by", "pool", "--since", "1h", "--resource", "cpu", "-o", "csv");
            return usage.out().lines().anyMatch(l -> l.startsWith("physical,on_second,cpu,") && !l.endsWith(",0.0"));
        });
        GroveCliTest.Run table = grove("usage", "--by", "user", "--since", "1h", "--resource", "cpu");
        assertTrue(table.out().contains("PREEMPTED"), table.out());
    }
}
