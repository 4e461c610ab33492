package io.grove.server.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class BackgroundPriorityTest {

    /** What a thread saw of itself: whether it was lowered, and its nice value then. */
    private record Seen(boolean lowered, int nice) {
    }

    @Test
    void theCallingThreadAloneGoesTenLower() throws Exception {
        String self = tid();
        int before = BackgroundPriority.niceOf(self);
        CompletableFuture<Seen> seen = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try {
                boolean lowered = BackgroundPriority.lower();
                seen.complete(new Seen(lowered, BackgroundPriority.niceOf(tid())));
            } catch (Exception e) {
                seen.completeExceptionally(e);
            }
        });
        writer.start();
        writer.join();
        assertTrue(seen.get().lowered(), "renice of the writer's own thread");
        assertEquals(Math.min(19, before + BackgroundPriority.NICE), seen.get().nice());
        assertEquals(before, BackgroundPriority.niceOf(self), "the other threads keep theirs");
    }

    private static String tid() throws Exception {
        return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
    }
}
