package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.job.JobUsers;
import io.grove.agent.job.WorkDir;
import io.grove.protocol.FinishedJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An agent running as root runs its jobs as unprivileged users, in sandboxes other jobs cannot read. */
class JobUsersTest {

    static final Path PASSWD = Path.of("/etc/passwd");

    @Test
    void jobsRunAsTheUnprivilegedUserNeverAsRoot(@TempDir Path work) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "switching users needs an agent running as root");
        try (AgentFixture f = new AgentFixture(work, JobUsers.forAgent(List.of("nobody"), null, true, PASSWD))) {
            f.start(AgentFixture.job("op-1-1", "id -un; id -u; id -G; touch mine; stat -c %U:%a .", 0));
            FinishedJob result = f.nextResult();
            assertEquals(FinishedJob.Outcome.COMPLETED, result.outcome(), String.valueOf(result.error()));
            List<String> lines = Files.readAllLines(new WorkDir(work).log("op-1-1", "stdout").orElseThrow());
            assertEquals("nobody", lines.get(0));
            assertNotEquals("0", lines.get(1));
            assertEquals(lines.get(2).trim(), Files.readAllLines(Path.of("/etc/group")).stream()
                    .filter(l -> l.startsWith("nogroup:")).map(l -> l.split(":")[2]).findFirst().orElse(lines.get(2).trim()),
                    "only the job user's own group");
            assertEquals("65534:700", lines.get(3).replace("nobody", "65534"), "the sandbox is the job user's, closed to others");
        }
    }

    @Test
    void perSlotUsersCannotReadEachOthersSandboxes(@TempDir Path work) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "switching users needs an agent running as root");
        try (AgentFixture f = new AgentFixture(work, JobUsers.forAgent(List.of("nobody", "daemon"), null, true, PASSWD))) {
            f.start(AgentFixture.job("op-1-1", "echo secret > secret; sleep 3", 0));
            f.started.take();
            WorkDir dirs = new WorkDir(work, true);
            Path secret = dirs.sandbox("op-1-1").resolve("secret");
            f.start(AgentFixture.job("op-1-2", "id -un; cat " + secret + " && echo READ", 0));
            FinishedJob second = null;
            for (int i = 0; i < 2; i++) {
                FinishedJob result = f.nextResult();
                if (result.jobId().equals("op-1-2")) {
                    second = result;
                }
            }
            String out = Files.readString(dirs.log("op-1-2", "stdout").orElseThrow());
            assertTrue(out.startsWith("daemon\n"), "the second slot's user: " + out);
            assertTrue(!out.contains("READ"), "it could not read the other job's sandbox: " + out);
            assertTrue(second != null && JobIsolationTest.keptFrom(second.error(), secret), String.valueOf(second));
        }
    }

    @Test
    void rootIsNeverAJobUser() {
        IOException refused = assertThrows(IOException.class, () -> JobUsers.forAgent(List.of("root"), null, true, PASSWD));
        assertTrue(refused.getMessage().contains("jobs never run as root"));
        assertThrows(IOException.class, () -> JobUsers.forAgent(List.of("no-such-user-here"), null, true, PASSWD));
        assertTrue(!assertDoesNotThrowSwitching(), "an agent that is not root does not switch");
    }

    private static boolean assertDoesNotThrowSwitching() {
        try {
            return JobUsers.forAgent(List.of("nobody"), null, false, PASSWD).switching();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void agentsSharingARangeOnOneMachineNeverGiveOneUidToTwoJobs(@org.junit.jupiter.api.io.TempDir Path leases)
            throws IOException {
        JobUsers first = JobUsers.forAgent(List.of(), "43000-43001", true, PASSWD).leasingIn(leases, "/a", job -> false);
        JobUsers second = JobUsers.forAgent(List.of(), "43000-43001", true, PASSWD).leasingIn(leases, "/b", job -> false);
        assertEquals(43000, first.assign("op-1-1").uid());
        assertEquals(43001, second.assign("op-2-1").uid(), "the other agent's uid is leased");
        IOException full = assertThrows(IOException.class, () -> first.assign("op-1-2"));
        assertTrue(full.getMessage().contains("every one of the 2 job uids is taken"), full.getMessage());
        second.release("op-2-1");
        assertEquals(43001, first.assign("op-1-2").uid(), "released, it can be leased again");
    }

    @Test
    void aRangeThatHoldsAnAccountOrRootIsRefused() {
        IOException account = assertThrows(IOException.class, () -> JobUsers.forAgent(List.of(), "65000-65535", true, PASSWD));
        assertTrue(account.getMessage().contains("nobody"), account.getMessage());
        assertThrows(IOException.class, () -> JobUsers.forAgent(List.of(), "0-10", true, PASSWD));
        assertThrows(IOException.class, () -> JobUsers.forAgent(List.of(), "30-20", true, PASSWD));
        assertThrows(IOException.class, () -> JobUsers.forAgent(List.of(), "many", true, PASSWD));
    }

    @Test
    void aUidStaysWithItsJobUntilItsFilesAreGoneEvenAcrossAnAgentRestart(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        Path leases = dir.resolve("leases");
        java.util.Set<String> withFiles = new java.util.HashSet<>();
        JobUsers agent = JobUsers.forAgent(List.of(), "43000-43002", true, PASSWD).leasingIn(leases, "/w1", withFiles::contains);
        assertEquals(43000, agent.assign("op-1-1").uid());
        withFiles.add("op-1-1");
        assertEquals(43001, agent.assign("op-1-2").uid());
        withFiles.add("op-1-2");
        // the agent stops (its locks go, as in a crash); a new run of it with the same work directory
        agent.closeLeases();
        JobUsers again = JobUsers.forAgent(List.of(), "43000-43002", true, PASSWD).leasingIn(leases, "/w1", withFiles::contains);
        JobUsers other = JobUsers.forAgent(List.of(), "43000-43002", true, PASSWD).leasingIn(leases, "/w2", job -> false);
        withFiles.remove("op-1-2");
        assertEquals(1, again.adoptLeases(), "op-1-1 still has files; op-1-2's are gone");
        assertEquals(43002, again.assign("op-2-1").uid(), "the cursor survived the restart: not the range's first uid");
        assertEquals(43001, other.assign("op-9-1").uid(), "op-1-2 left nothing: its uid is free");
        IOException full = assertThrows(IOException.class, () -> other.assign("op-9-2"));
        assertTrue(full.getMessage().contains("files of an ended one not removed yet"), full.getMessage());
        withFiles.remove("op-1-1");
        again.release("op-1-1");
        assertEquals(43000, other.assign("op-9-2").uid(), "its files removed, op-1-1's uid is given again");
    }

    /**
     * An agent whose work directory was removed while it was down never comes back for its leases:
     * the next agent to start frees them once what their jobs left is emptied; leases of a running
     * agent, or of one whose directory exists, stay; a uid whose leftovers could not be emptied stays taken.
     */
    @Test
    void leasesOfAnAgentGoneWithItsWorkDirectoryAreFreedOnceTheirJobsLeftoversAreEmptied(
            @org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path leases = dir.resolve("leases");
        Path kept = Files.createDirectories(dir.resolve("kept"));
        String gone = dir.resolve("gone").toString();
        JobUsers goneAgent = JobUsers.forAgent(List.of(), "43000-43004", true, PASSWD).leasingIn(leases, gone, job -> true);
        assertEquals(43000, goneAgent.assign("op-1-1").uid());
        assertEquals(43001, goneAgent.assign("op-1-2").uid());
        goneAgent.closeLeases();
        JobUsers keptAgent = JobUsers.forAgent(List.of(), "43000-43004", true, PASSWD).leasingIn(leases, kept.toString(),
                job -> true);
        assertEquals(43002, keptAgent.assign("op-2-1").uid());
        keptAgent.closeLeases();
        JobUsers running = JobUsers.forAgent(List.of(), "43000-43004", true, PASSWD).leasingIn(leases,
                dir.resolve("also-gone").toString(), job -> true);
        assertEquals(43003, running.assign("op-3-1").uid());

        JobUsers starting = JobUsers.forAgent(List.of(), "43000-43004", true, PASSWD).leasingIn(leases,
                dir.resolve("new").toString(), job -> false);
        java.util.List<String> emptied = new java.util.ArrayList<>();
        int freed = starting.sweepOrphanLeases((user, owner, jobId) -> {
            if (jobId.equals("op-1-2")) {
                throw new IOException("its sandbox could not be removed");
            }
            emptied.add(user.uid() + " " + owner + " " + jobId);
        });
        assertEquals(1, freed, "only op-1-1's uid: op-1-2's leftovers stay, the others' agents exist or run");
        assertEquals(List.of("43000 " + gone + " op-1-1"), emptied);
        assertEquals(43004, starting.assign("op-4-1").uid());
        assertEquals(43000, starting.assign("op-4-2").uid(), "the orphan's uid is free again");
        IOException full = assertThrows(IOException.class, () -> starting.assign("op-4-3"));
        assertTrue(full.getMessage().contains("every one of the 5 job uids is taken"), full.getMessage());
    }
}
