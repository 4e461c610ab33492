package io.grove.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The documentation is the contract: every example body in {@code docs/api.md} and
 * {@code docs/agent.md} is marked with its record ({@code <!-- body: OperationSummary -->}, or
 * {@code OperationSummary[]} for a list), reads strictly into it (a documented field the record
 * lacks fails), and writes back to the same JSON (a field the record drops fails). Every body
 * record has an example.
 */
class DocumentedExamplesTest {

    private static final Pattern EXAMPLE = Pattern.compile(
            "<!-- body: ([A-Za-z.]+)(\\[])? -->[ \t]*\n[ \t]*```(json|yaml)\n(.*?)\n[ \t]*```", Pattern.DOTALL);

    private static final Pattern BLOCK = Pattern.compile("```(json|yaml)\n");

    /** The records that are whole bodies; each needs an example in the docs. */
    private static final List<Class<?>> BODIES = List.of(ApiError.class, OperationSpecBody.class,
            OperationSummary.class, OperationDetails.class, OperationUpdate.class, JobView.class, JobLog.class,
            PoolTreeView.class, PoolView.class, NodeView.class, ConfigView.class, ConfigView.ReloadStatus.class,
            ConfigDiff.class, Health.class, BrokerView.class, AgentNodeView.class, Explanation.class,
            PoolHistoryView.class, StateEvent.class);

    @Test
    void everyDocumentedBodyRoundTripsThroughItsRecord() throws Exception {
        Set<Class<?>> documented = new HashSet<>();
        int examples = 0;
        for (String doc : List.of("api.md", "agent.md")) {
            String text = Files.readString(docs().resolve(doc));
            Matcher marked = EXAMPLE.matcher(text);
            List<Integer> starts = new ArrayList<>();
            while (marked.find()) {
                Class<?> type = Class.forName("io.grove.api." + marked.group(1).replace('.', '$'));
                JsonNode example = parse(marked.group(3), marked.group(4));
                String where = doc + " example " + (examples + 1) + " (" + marked.group(1) + ")";
                if (marked.group(2) != null) {
                    assertTrue(example.isArray() && !example.isEmpty(), where + " must be a non-empty list");
                    for (JsonNode item : example) {
                        roundTrip(item, type, where);
                    }
                } else {
                    roundTrip(example, type, where);
                }
                documented.add(type);
                starts.add(marked.start(3) - 3);
                examples++;
            }
            Matcher block = BLOCK.matcher(text);
            while (block.find()) {
                assertTrue(starts.contains(block.start()), doc + ": the example at character " + block.start()
                        + " has no <!-- body: Record --> marker: say which record it shows");
            }
        }
        for (Class<?> body : BODIES) {
            assertTrue(documented.contains(body), body.getSimpleName() + " has no example in docs/api.md or docs/agent.md");
        }
    }

    @Test
    void aFieldTheRecordDoesNotHaveIsAnErrorThatNamesIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ApiJson.readStrict("{\"weight\": 2, \"wieght\": 3}", OperationUpdate.class));
        assertTrue(e.getMessage().contains("unknown field 'wieght'"), e.getMessage());
        assertEquals(2.0, ApiJson.read("{\"weight\": 2, \"later\": 3}", OperationUpdate.class).weight());
    }

    @Test
    void wholeAmountsAreWrittenAsIntegersAndUnsetOnesAreLeftOut() {
        JsonNode written = ApiJson.tree(Amounts.of(4, 0.5, Double.POSITIVE_INFINITY, 8589934592.0, Double.NaN));
        assertEquals("{\"user_slots\":4,\"cpu\":0.5,\"memory\":8589934592}", written.toString());
        assertFalse(ApiJson.write(new OperationSummary("op-1", "alice", null, "pending", java.util.Map.of(),
                new Progress(1, 1, 0, 0, 0, 0), "t", null, null, null, null, null, null, null)).contains("finished_at"));
    }

    private static void roundTrip(JsonNode example, Class<?> type, String where) throws IOException {
        Object record;
        try {
            record = ApiJson.strict(type).readValue(example);
        } catch (IOException e) {
            fail(where + " does not read into " + type.getSimpleName() + ": " + e.getMessage());
            return;
        }
        JsonNode back = ApiJson.tree(record);
        assertTrue(example.equals(NUMERIC, back), where + " does not write back the same:\n  documented " + example
                + "\n  written    " + back);
    }

    /** Numbers compare by value ({@code 4} and {@code 4.0} are the same amount). */
    private static final Comparator<JsonNode> NUMERIC = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return Double.compare(a.doubleValue(), b.doubleValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private static JsonNode parse(String kind, String text) throws IOException {
        if (kind.equals("json")) {
            return ApiJson.mapper().readTree(text);
        }
        Object yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        return ApiJson.mapper().valueToTree(yaml);
    }

    private static Path docs() {
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !Files.isDirectory(here.resolve("docs"))) {
            here = here.getParent();
        }
        if (here == null) {
            throw new IllegalStateException("no docs/ above " + Path.of("").toAbsolutePath());
        }
        return here.resolve("docs");
    }
}
