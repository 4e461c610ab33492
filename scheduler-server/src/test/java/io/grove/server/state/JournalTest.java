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
    void anOperationsOwnPreemptionSettingsSurviveTheJournal(@TempDir Path dir) throws Exception {
        double inf = Double.POSITIVE_INFINITY;
        JournalEvent submitted = new JournalEvent.Submitted("op-2", OperationSpec.builder().pool("a")
                .jobs(1, new Resources(1, 1, 0, 1e9, 0))
                .preemption(new io.grove.core.operation.OperationPreemption(0.5, 60_000L, new Resources(inf, 4, inf, inf, inf)))
                .build(), "bob", 5000);
        try (Journal journal = Journal.open(dir)) {
            journal.append(submitted).get();
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(List.of(submitted), journal.recovered());
        }
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

    /** Job events nobody waits for are written one group at a time but share fsyncs. */
    @Test
    void recordedEventsHaveNoFsyncOfTheirOwn(@TempDir Path dir) throws Exception {
        FaultyDisk disk = new FaultyDisk();
        List<JournalEvent> events = new java.util.ArrayList<>();
        try (Journal journal = Journal.open(dir, disk)) {
            int before = disk.forces.get();
            for (int i = 0; i < 300; i++) {
                JournalEvent event = new JournalEvent.JobStarted("op-1-" + i, "op-1", "main", i, 0, "n1", "t", 2000 + i,
                        Set.of(), 0);
                events.add(event);
                long written = journal.records();
                journal.record(event);
                while (journal.records() == written) {
                    Thread.onSpinWait(); // each one in its own group, as on a cluster that is not busy
                }
            }
            int recorded = disk.forces.get() - before;
            assertTrue(recorded < 100, recorded + " fsyncs for 300 groups of job events");
            JournalEvent aborted = new JournalEvent.Aborted("op-1", 4000, "by alice");
            events.add(aborted);
            journal.append(aborted).get();
            assertTrue(disk.forces.get() > before, "an awaited event is fsynced, with what came before it");
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(events, journal.recovered());
        }
    }

    @Test
    void aRecordedEventIsSyncedWhenTheJournalGoesQuietAndAtClose(@TempDir Path dir) throws Exception {
        FaultyDisk disk = new FaultyDisk();
        JournalEvent started = someEvents().get(1);
        try (Journal journal = Journal.open(dir, disk)) {
            int before = disk.forces.get();
            journal.record(started);
            long waited = System.nanoTime();
            while (disk.forces.get() == before) {
                assertTrue(System.nanoTime() - waited < 30_000_000_000L, "no fsync after a quiet spell");
                Thread.onSpinWait();
            }
            int synced = disk.forces.get();
            journal.record(someEvents().get(2));
            journal.close();
            assertTrue(disk.forces.get() > synced, "closing syncs what was recorded");
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(someEvents().subList(1, 3), journal.recovered());
        }
    }

    @Test
    void aTornLastRecordIsCutOffNotFatal(@TempDir Path dir) throws Exception {
        try (Journal journal = Journal.open(dir)) {
            for (JournalEvent event : someEvents()) {
                journal.append(event).get();
            }
        }
        byte[] next = JournalFormat.encode(new JournalEvent.Aborted("op-2", 5000, "x"), 5);
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
        bytes[30] ^= 0x55;
        Files.write(dir.resolve("journal"), bytes);
        IOException error = assertThrows(IOException.class, () -> Journal.open(dir));
        assertTrue(error.getMessage().contains("is corrupt at offset 0 (a body checksum mismatch, with a valid record at offset"),
                error.getMessage());
        assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(dir.resolve("journal"))), "nothing was changed");
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

    @Test
    void aSnapshotSuppliedLaterIsMadeOnTheJournalsThreadInItsPlaceInTheQueue(@TempDir Path dir) throws Exception {
        Thread caller = Thread.currentThread();
        java.util.concurrent.atomic.AtomicReference<Thread> madeOn = new java.util.concurrent.atomic.AtomicReference<>();
        try (Journal journal = Journal.open(dir)) {
            journal.append(new JournalEvent.Submitted("op-1", SPEC, "alice", 1));
            journal.compact(() -> {
                madeOn.set(Thread.currentThread());
                return List.of(new JournalEvent.Submitted("op-9", SPEC, "bob", 1));
            });
            journal.append(new JournalEvent.Aborted("op-9", 2, "z")).get();
        }
        assertTrue(madeOn.get() != null && madeOn.get() != caller, "made on " + madeOn.get());
        try (Journal journal = Journal.open(dir)) {
            assertEquals(List.of(new JournalEvent.Submitted("op-9", SPEC, "bob", 1),
                    new JournalEvent.Aborted("op-9", 2, "z")), journal.recovered(),
                    "what was appended before the compaction is in the snapshot's place, what came after follows it");
        }
    }

    static List<JournalEvent> many(int count) {
        List<JournalEvent> events = new java.util.ArrayList<>();
        for (int i = 1; i <= count; i++) {
            events.add(new JournalEvent.Submitted("op-" + i, SPEC, "alice", i));
        }
        return events;
    }

    static void write(Path dir, List<JournalEvent> events) throws Exception {
        try (Journal journal = Journal.open(dir)) {
            for (JournalEvent event : events) {
                journal.append(event);
            }
            journal.append(new JournalEvent.Aborted("op-1", 1, "last")).get();
        }
    }

    @Test
    void aCorruptedLengthInTheMiddleRefusesTheStartInsteadOfDroppingHalfTheJournal(@TempDir Path dir) throws Exception {
        write(dir, many(2000));
        Path file = dir.resolve("journal");
        byte[] bytes = Files.readAllBytes(file);
        int middle = offsetOfRecord(bytes, 1000);
        java.nio.ByteBuffer.wrap(bytes).putInt(middle + 12, 0x7fff_0000);
        Files.write(file, bytes);
        IOException error = assertThrows(IOException.class, () -> Journal.open(dir));
        assertTrue(error.getMessage().contains("is corrupt at offset " + middle + " (a damaged header"), error.getMessage());
        assertTrue(java.util.Arrays.equals(bytes, Files.readAllBytes(file)), "the journal is left as it was");
    }

    @Test
    void aTailOfZerosIsCutLikeATornTail(@TempDir Path dir) throws Exception {
        write(dir, many(10));
        Files.write(dir.resolve("journal"), new byte[64 * 1024], StandardOpenOption.APPEND);
        try (Journal journal = Journal.open(dir)) {
            assertEquals(11, journal.recovered().size());
            journal.append(new JournalEvent.Aborted("op-2", 2, "after")).get();
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(12, journal.recovered().size());
        }
    }

    @Test
    void zerosInTheMiddleWithRecordsAfterThemAreCorruption(@TempDir Path dir) throws Exception {
        write(dir, many(10));
        Path file = dir.resolve("journal");
        byte[] bytes = Files.readAllBytes(file);
        int at = offsetOfRecord(bytes, 4);
        java.util.Arrays.fill(bytes, at, at + 40, (byte) 0);
        Files.write(file, bytes);
        IOException error = assertThrows(IOException.class, () -> Journal.open(dir));
        assertTrue(error.getMessage().contains("corrupt at offset " + at), error.getMessage());
    }

    @Test
    void aFailedWriteIsCutBackSoLaterAppendsFollowTheLastGoodRecord(@TempDir Path dir) throws Exception {
        FaultyDisk disk = new FaultyDisk();
        try (Journal journal = Journal.open(dir, disk)) {
            journal.append(new JournalEvent.Aborted("op-1", 1, "one")).get();
            disk.failWritesAfter(30);
            assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> journal.append(new JournalEvent.Aborted("op-2", 2, "lost")).get());
            disk.heal();
            journal.append(new JournalEvent.Aborted("op-3", 3, "three")).get();
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(List.of(new JournalEvent.Aborted("op-1", 1, "one"), new JournalEvent.Aborted("op-3", 3, "three")),
                    journal.recovered(), "the acknowledged records, and nothing of the failed one");
        }
    }

    @Test
    void aFailedCutBackIsRetriedBeforeTheNextWrite(@TempDir Path dir) throws Exception {
        FaultyDisk disk = new FaultyDisk();
        try (Journal journal = Journal.open(dir, disk)) {
            journal.append(new JournalEvent.Aborted("op-1", 1, "one")).get();
            disk.failWritesAfter(30);
            disk.failTruncate = true;
            assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> journal.append(new JournalEvent.Aborted("op-2", 2, "lost")).get());
            disk.heal();
            journal.append(new JournalEvent.Aborted("op-3", 3, "three")).get();
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(2, journal.recovered().size());
        }
    }

    @Test
    void aFailedCompactionLeavesTheJournalAsItWasAndOpenForAppends(@TempDir Path dir) throws Exception {
        FaultyDisk disk = new FaultyDisk();
        try (Journal journal = Journal.open(dir, disk)) {
            for (JournalEvent event : someEvents()) {
                journal.append(event);
            }
            disk.failMove = true;
            assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> journal.compact(List.of(new JournalEvent.Submitted("op-9", SPEC, "bob", 1))).get());
            disk.heal();
            disk.failWritesAfter(10);
            assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> journal.compact(List.of(new JournalEvent.Submitted("op-9", SPEC, "bob", 1))).get());
            disk.heal();
            journal.append(new JournalEvent.Aborted("op-5", 5, "after")).get();
        }
        assertTrue(!Files.exists(dir.resolve("journal.next")));
        try (Journal journal = Journal.open(dir)) {
            List<JournalEvent> expected = new java.util.ArrayList<>(someEvents());
            expected.add(new JournalEvent.Aborted("op-5", 5, "after"));
            assertEquals(expected, journal.recovered());
        }
    }

    @Test
    void theJournalAndItsDirectoryAreClosedToOthers(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        write(data, many(1));
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(data)));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(data.resolve("journal"))));
    }

    @Test
    void aJournalOfTheFirstFormatIsReadAndRewritten(@TempDir Path dir) throws Exception {
        java.io.ByteArrayOutputStream legacy = new java.io.ByteArrayOutputStream();
        for (JournalEvent event : someEvents()) {
            byte[] body = io.grove.protocol.ProtocolJson.mapper().writeValueAsBytes(event);
            legacy.write(java.nio.ByteBuffer.allocate(8).putInt(body.length)
                    .putInt(JournalFormat.crc(body, 0, body.length)).array());
            legacy.write(body);
        }
        Files.write(dir.resolve("journal"), legacy.toByteArray());
        try (Journal journal = Journal.open(dir)) {
            assertEquals(someEvents(), journal.recovered());
            journal.append(new JournalEvent.Aborted("op-5", 5, "after")).get();
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(5, journal.recovered().size());
        }
    }

    /** The offset of the record numbered {@code n} (from 1). */
    static int offsetOfRecord(byte[] bytes, int n) {
        int at = 0;
        for (int i = 1; i < n; i++) {
            at += JournalFormat.HEADER + java.nio.ByteBuffer.wrap(bytes).getInt(at + 12);
        }
        return at;
    }

    @Test
    void jobEventsAreCompactBinaryAndJsonOnesWrittenBeforeStillRead(@TempDir Path dir) throws Exception {
        JournalEvent.JobStarted started = (JournalEvent.JobStarted) someEvents().get(1);
        JournalEvent.JobEnded ended = (JournalEvent.JobEnded) someEvents().get(2);
        byte[] binary = JournalFormat.encode(started, 1);
        assertEquals(JobEventCodec.STARTED, binary[JournalFormat.HEADER], "a binary body");
        byte[] json = io.grove.protocol.ProtocolJson.mapper().writeValueAsBytes((JournalEvent) started);
        assertTrue(binary.length - JournalFormat.HEADER < json.length * 2 / 3,
                binary.length + " bytes against " + json.length + " of JSON");
        // a journal whose job events are JSON, as written before
        java.io.ByteArrayOutputStream old = new java.io.ByteArrayOutputStream();
        long sequence = 1;
        for (JournalEvent event : List.of(started, ended)) {
            byte[] body = io.grove.protocol.ProtocolJson.mapper().writeValueAsBytes(event);
            java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(JournalFormat.HEADER);
            header.putInt(JournalFormat.MAGIC).putLong(sequence++).putInt(body.length)
                    .putInt(JournalFormat.crc(body, 0, body.length));
            header.putInt(JournalFormat.crc(header.array(), 0, 20));
            old.write(header.array());
            old.write(body);
        }
        Files.write(dir.resolve("journal"), old.toByteArray());
        try (Journal journal = Journal.open(dir)) {
            assertEquals(List.of(started, ended), journal.recovered());
            journal.append(new JournalEvent.JobEnded("op-1-2", JobState.COMPLETED, null, null, 9)).get();
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(new JournalEvent.JobEnded("op-1-2", JobState.COMPLETED, null, null, 9), journal.recovered().get(2));
        }
    }

    /**
     * The binary bodies are written straight into the group's buffer; their bytes stay those of the
     * documented layout (big-endian, strings as a UTF-8 length and bytes), non-ASCII text included,
     * and a group of several records reads back in order.
     */
    @Test
    void binaryBodiesKeepTheirLayout(@TempDir Path dir) throws Exception {
        JournalEvent.JobStarted started = new JournalEvent.JobStarted("op-7-3", "op-7", "t\u00e2che", 4, 1, "n\u00f6de-1",
                "physical", 1234L, new java.util.LinkedHashSet<>(List.of("op-2", "op-\u4e00")), 0.25);
        JournalEvent.JobEnded ended = new JournalEvent.JobEnded("op-7-3", JobState.FAILED, JobEndReason.FAILED,
                "exit 1: \u00e9chec", 5678L);
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream out = new java.io.DataOutputStream(expected);
        out.writeByte(JobEventCodec.STARTED);
        for (String text : List.of("op-7-3", "op-7", "t\u00e2che")) {
            utf8(out, text);
        }
        out.writeInt(4);
        out.writeInt(1);
        utf8(out, "n\u00f6de-1");
        utf8(out, "physical");
        out.writeLong(1234L);
        out.writeInt(2);
        for (String preempting : started.startedByPreempting()) {
            // a set: its order is the record's own (an immutable set's order differs between JVMs)
            utf8(out, preempting);
        }
        out.writeDouble(0.25);
        byte[] record = JournalFormat.encode(started, 5);
        assertEquals(java.util.Arrays.toString(expected.toByteArray()), java.util.Arrays.toString(
                java.util.Arrays.copyOfRange(record, JournalFormat.HEADER, record.length)));
        try (Journal journal = Journal.open(dir)) {
            journal.append(started);
            journal.append(ended).get();
        }
        try (Journal journal = Journal.open(dir)) {
            assertEquals(List.of(started, ended), journal.recovered());
        }
    }

    private static void utf8(java.io.DataOutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
