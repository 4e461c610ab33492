package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.OperationSpec;
import io.grove.core.resource.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {

    static final OperationSpec SPEC = OperationSpec.builder().pool("a").jobs(3, new Resources(1, 1, 0, 1e9, 0)).build();

    static List<JournalEvent> someEvents() {
        return List.of(
                new JournalEvent.Submitted("op-1", SPEC, "alice", 1000),
                new JournalEvent.JobStarted("op-1-1", "op-1", "main", 0, 0, "n1", "t", 2000, Set.of("op-0"), 0.25),
                new JournalEvent.JobEnded("op-1-1", JobState.FAILED, JobEndReason.FAILED, "exit code 3", 3000),
                new JournalEvent.Aborted("op-1", 4000, "by alice"));
    }

    @Test
    void recordsSurviveAReopenInOrder(@TempDir Path dir) throws Exception {
        try (Journal journal = Journal.open(dir)) {
            for (JournalEvent event : someEvents()) {
                journal.append(event).get();
            }
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(someEvents(), journal.recovered());
        }
    }

    @Test
    void aTornLastRecordIsCutOffNotFatal(@TempDir Path dir) throws Exception {
        try (Journal journal = Journal.open(dir)) {
            for (JournalEvent event : someEvents()) {
                journal.append(event).get();
            }
        }
        byte[] next = Journal.encode(new JournalEvent.Aborted("op-2", 5000, "x"));
        Files.write(dir.resolve("journal"), java.util.Arrays.copyOf(next, next.length - 3), StandardOpenOption.APPEND);
        long sizeWithTorn = Files.size(dir.resolve("journal"));
        try (Journal journal = Journal.open(dir)) {
            assertEquals(someEvents(), journal.recovered());
            journal.append(new JournalEvent.Aborted("op-3", 6000, "y")).get();
        }
        assertTrue(Files.size(dir.resolve("journal")) < sizeWithTorn + next.length);
        try (Journal journal = Journal.open(dir)) {
            assertEquals(5, journal.recovered().size());
            assertEquals(new JournalEvent.Aborted("op-3", 6000, "y"), journal.recovered().get(4));
        }
    }

    @Test
    void aBadRecordBeforeGoodOnesIsCorruptionAndRefusesToOpen(@TempDir Path dir) throws Exception {
        try (Journal journal = Journal.open(dir)) {
            for (JournalEvent event : someEvents()) {
                journal.append(event).get();
            }
        }
        byte[] bytes = Files.readAllBytes(dir.resolve("journal"));
        bytes[12] ^= 0x55;
        Files.write(dir.resolve("journal"), bytes);
        IOException error = assertThrows(IOException.class, () -> Journal.open(dir));
        assertTrue(error.getMessage().contains("is corrupt at offset 0 (checksum mismatch)"), error.getMessage());
    }

    @Test
    void compactionReplacesTheFileAndAppendsContinue(@TempDir Path dir) throws Exception {
        try (Journal journal = Journal.open(dir)) {
            for (JournalEvent event : someEvents()) {
                journal.append(event);
            }
            journal.compact(List.of(new JournalEvent.Submitted("op-9", SPEC, "bob", 1))).get();
            journal.append(new JournalEvent.Aborted("op-9", 2, "z")).get();
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(List.of(new JournalEvent.Submitted("op-9", SPEC, "bob", 1),
                    new JournalEvent.Aborted("op-9", 2, "z")), journal.recovered());
        }
    }
}
