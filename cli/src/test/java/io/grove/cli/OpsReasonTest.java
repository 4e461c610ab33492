package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.api.OperationSummary;
import io.grove.api.PendingReason;
import io.grove.api.Progress;
import io.grove.api.Shortfall;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reason `grove ops list` shows is the scheduler's: a pending reason, else its shortfall; no guess of its own. */
class OpsReasonTest {

    static OperationSummary op(String state, PendingReason pending, Shortfall shortfall) {
        return new OperationSummary("op-1", "alice", null, state, Map.of("physical", "etl"), new Progress(4, 2, 2, 0, 0, 0),
                "2026-11-27T00:00:00Z", null, pending, 0.5, 0.1, 0.5, "non_starving", shortfall);
    }

    @Test
    void thePendingReasonThenTheShortfallThenNothing() {
        assertEquals("queued #2 in etl: at max_running_operation_count 1", OpsCommand.reason(op("pending",
                new PendingReason(PendingReason.COUNT_LIMIT, "physical", "etl", 1, 2, "..."), null)));
        assertEquals("below fair share: waiting for free resources", OpsCommand.reason(op("running", null,
                Shortfall.of("running", 0.5, 0.1, "non_starving", 2))));
        assertEquals("", OpsCommand.reason(op("running", null, null)), "the client guesses nothing from the shares");
    }
}
