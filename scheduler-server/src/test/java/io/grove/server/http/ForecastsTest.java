package io.grove.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.api.Explanation;
import io.grove.core.forecast.StartForecast;
import io.grove.core.forecast.Cadence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A user waits on a bounded number of forecasts; others are not held back by them. */
class ForecastsTest {

    @Test
    void oneUserWaitsOnAtMostFourForecastsAndOthersStillGetTheirs() throws Exception {
        Forecasts forecasts = new Forecasts(Cadence.DEFAULT);
        CompletableFuture<Map<String, StartForecast.Prediction>> computing = new CompletableFuture<>();
        List<CompletableFuture<Explanation.Forecast>> waiting = new ArrayList<>();
        for (int i = 0; i < Forecasts.PER_USER; i++) {
            waiting.add(forecasts.forecast(new Forecasts.Request("op-" + i, "mallory", computing)));
        }
        Explanation.Forecast refused = forecasts.forecast(new Forecasts.Request("op-9", "mallory", computing)).get();
        assertTrue(refused.unknown().contains("already waits for 4 forecasts"), refused.unknown());
        CompletableFuture<Explanation.Forecast> alice = forecasts.forecast(new Forecasts.Request("op-1", "alice", computing));
        assertFalse(alice.isDone());
        computing.complete(Map.of("op-1", new StartForecast.Prediction("op-1", null, null, List.of("an assumption"),
                "nothing known")));
        assertEquals("nothing known", alice.get().unknown());
        for (CompletableFuture<Explanation.Forecast> one : waiting) {
            assertTrue(one.isDone());
        }
        // answered: mallory may ask again
        assertEquals("nothing known", forecasts.forecast(new Forecasts.Request("op-1", "mallory", computing)).get().unknown());
    }

    /** A slow forecast (or one that ran out of time) is not made again at every poll: kept ten times as long as it took. */
    @Test
    void aSlowForecastIsKeptTenTimesAsLongAsItTook() {
        assertEquals(Duration.ofSeconds(30), Forecasts.keptFor(Duration.ofSeconds(3).toNanos()));
        assertEquals(Forecasts.KEPT, Forecasts.keptFor(Duration.ofMillis(20).toNanos()), "a quick one: 5 s");
    }
}
