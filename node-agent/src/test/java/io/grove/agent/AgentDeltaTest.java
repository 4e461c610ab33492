package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.NodeHeartbeat;
import io.grove.protocol.RunningJob;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With a version 2 scheduler the agent's heartbeats list what started; the full list on request. */
class AgentDeltaTest {

    static List<String> ids(List<RunningJob> jobs) {
        return jobs.stream().map(RunningJob::jobId).toList();
    }

    @Test
    void heartbeatsListOnlyWhatStartedSinceTheLastAcknowledgedOne(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.call(() -> {
                f.agent.welcomed(2);
                return null;
            });
            NodeHeartbeat empty = f.start(AgentFixture.job("op-1-1", "sleep 30", 0), AgentFixture.job("op-1-2", "sleep 30", 0));
            assertTrue(empty.deltaOnly());
            NodeHeartbeat started = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertTrue(started.deltaOnly());
            assertEquals(List.of("op-1-1", "op-1-2"), ids(started.startedJobs()));
            assertEquals(List.of(), started.runningJobs());
            NodeHeartbeat quiet = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000, true));
            assertEquals(List.of(), quiet.startedJobs(), "acknowledged: not listed again");
            NodeHeartbeat full = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertFalse(full.deltaOnly(), "the scheduler asked for a resync");
            assertEquals(List.of("op-1-1", "op-1-2"), ids(full.runningJobs()));
            f.call(() -> {
                f.agent.heartbeat();
                f.agent.heartbeatLost();
                return null;
            });
            assertFalse(f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000)).deltaOnly(),
                    "after a heartbeat without a reply, the full list");
        }
    }

    @Test
    void aVersion1SchedulerGetsTheFullListEveryTime(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.call(() -> {
                f.agent.welcomed(1);
                return null;
            });
            f.start(AgentFixture.job("op-1-1", "sleep 30", 0));
            NodeHeartbeat next = f.exchange(new HeartbeatReply(List.of(), List.of(), List.of(), 1000));
            assertFalse(next.deltaOnly());
            assertEquals(List.of("op-1-1"), ids(next.runningJobs()));
        }
    }
}
