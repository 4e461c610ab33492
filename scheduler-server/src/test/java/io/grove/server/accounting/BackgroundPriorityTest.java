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
        int before = niceOf(self);
        CompletableFuture<Seen> seen = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try {
                boolean lowered = BackgroundPriority.lower();
                seen.complete(new Seen(lowered, niceOf(tid())));
            } catch (Exception e) {
                seen.completeExceptionally(e);
            }
        });
        writer.start();
        writer.join();
        assertTrue(seen.get().lowered(), "renice of the writer's own thread");
        assertEquals(Math.min(19, before + BackgroundPriority.NICE), seen.get().nice());
        assertEquals(before, niceOf(self), "the other threads keep theirs");
    }

    /** The nice value of the thread {@code tid} of this process, from {@code /proc}. */
    private static int niceOf(String tid) throws Exception {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        // the fields after the command's closing parenthesis: state is field 3, nice field 19
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]);
    }

    private static String tid() throws Exception {
        return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
    }
}
