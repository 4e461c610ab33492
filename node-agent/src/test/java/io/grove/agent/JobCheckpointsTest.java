package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.job.WorkDir;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.JobStatus;
import io.grove.protocol.NodeHeartbeat;
import io.grove.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint contract (docs/agent.md#checkpoints): a job touches {@code $GROVE_CHECKPOINT_FILE};
 * the next heartbeat tells how long ago, once per change; the time is read from the file itself (a
 * link the job planted is not followed) and held to the job's run.
 */
class JobCheckpointsTest {

    static final HeartbeatReply NOTHING = new HeartbeatReply(List.of(), List.of(), List.of(), 1000);

    static JobStatus checkpointOf(NodeHeartbeat heartbeat, String jobId) {
        return heartbeat.jobStatus().stream().filter(s -> s.jobId().equals(jobId) && s.checkpointAgeMs() != null)
                .findFirst().orElse(null);
    }

    @Test
    void aTouchedFileIsToldOnceAsAnAgeAndAgainAfterALostHeartbeat(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(AgentFixture.job("op-1-1", "touch \"$GROVE_CHECKPOINT_FILE\"; echo \"$GROVE_CHECKPOINT_FILE\"; sleep 60", 0));
            Path file = new WorkDir(work).sandbox("op-1-1").resolve(".grove-checkpoint");
            Await.until("the job touched its checkpoint file", () -> Files.exists(file));
            AtomicReference<JobStatus> told = new AtomicReference<>();
            Await.until("a heartbeat tells the checkpoint", () -> {
                try {
                    told.set(checkpointOf(f.exchange(NOTHING), "op-1-1"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return told.get() != null;
            });
            assertTrue(told.get().checkpointAgeMs() >= 0 && told.get().checkpointAgeMs() < 30_000, told.get().toString());
            assertEquals(null, checkpointOf(f.exchange(NOTHING), "op-1-1"), "told once per change");
            f.call(() -> {
                f.agent.heartbeatLost();
                return null;
            });
            assertTrue(checkpointOf(f.exchange(NOTHING), "op-1-1") != null, "told again after a lost heartbeat");
            // a file dated a day into the future says no more than "now"
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 86_400_000L));
            assertEquals(0L, checkpointOf(f.exchange(NOTHING), "op-1-1").checkpointAgeMs());
            // a link the job planted to a file of the host: its own time, never the target's
            Path host = work.resolve("host-file");
            Files.writeString(host, "x");
            Files.setLastModifiedTime(host, FileTime.fromMillis(System.currentTimeMillis() - 5_000));
            Files.delete(file);
            Files.createSymbolicLink(file, host);
            Files.setLastModifiedTime(host, FileTime.fromMillis(System.currentTimeMillis() - 3_000));
            JobStatus linked = checkpointOf(f.exchange(NOTHING), "op-1-1");
            assertTrue(linked != null && linked.checkpointAgeMs() < 2_000,
                    "the link's own time (just made), not its target's (3 s ago): " + linked);
        }
    }
}
