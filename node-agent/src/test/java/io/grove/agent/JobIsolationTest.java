package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.job.JobUsers;
import io.grove.agent.job.WorkDir;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile job tries against the node and against other jobs, with the agent running as
 * root as its systemd unit ships it: a job's environment never reaches a root process, jobs get
 * no variable of the agent's, read no other job's logs, files or environment, and leave no
 * process behind.
 */
class JobIsolationTest {

    static final Path PASSWD = Path.of("/etc/passwd");
    /** Uids no account of this machine has (checked by JobUsers). */
    static final String UIDS = "43000-43009";

    private static void assumeRoot() {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "these attacks need an agent running as root");
    }

    private static HeartbeatReply.JobToStart job(String id, String command, Map<String, String> env) {
        return new HeartbeatReply.JobToStart(id, "op-1", "main", 0, command, env, new Resources(1, 1, 0, 0, 0));
    }

    @Test
    void fakeProgramsFirstInTheJobsPathNeverRunAsRoot(@TempDir Path work) throws Exception {
        assumeRoot();
        // not in /tmp or /var/tmp: a job has its own of those
        Path trap = Files.createTempDirectory(Path.of("/run"), "grove-trap");
        Files.setAttribute(trap, "unix:mode", 01777);
        try {
            for (String program : List.of("setpriv", "setsid", "env", "bash", "kill", "id")) {
                Path fake = trap.resolve(program);
                Files.writeString(fake, "#!/bin/sh\ntouch " + trap + "/ran-" + program + "-as-$(/usr/bin/id -u)\n"
                        + "exec /usr/bin/" + program + " \"$@\"\n");
                Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            Map<String, String> env = Map.of("PATH", trap + ":/usr/bin:/bin", "LD_LIBRARY_PATH", trap.toString(),
                    "LD_PRELOAD", trap.resolve("missing.so").toString());
            try (AgentFixture f = new AgentFixture(work, JobUsers.forAgent(List.of(), UIDS, true, PASSWD))) {
                f.start(job("op-1-1", "id -u", env));
                FinishedJob result = f.resultOf("op-1-1");
                assertEquals(FinishedJob.Outcome.COMPLETED, result.outcome(), String.valueOf(result.error()));
                try (var ran = Files.list(trap)) {
                    List<String> traces = ran.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("ran-")).toList();
                    assertFalse(traces.stream().anyMatch(n -> n.endsWith("-as-0")), "a job's program ran as root: " + traces);
                    assertTrue(traces.contains("ran-id-as-43000"), "the job itself uses its PATH, as its user: " + traces);
                }
            }
        } finally {
            try (var files = Files.list(trap)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(trap);
        }
    }

    @Test
    void aJobGetsItsSpecAndAFixedBaseButNothingOfTheAgentsEnvironment(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(job("op-1-1", "env -0", Map.of("MODE", "test", "WEIRD", "it's \"$(quoted)\"\nnewline")));
            FinishedJob result = f.resultOf("op-1-1");
            assertEquals(FinishedJob.Outcome.COMPLETED, result.outcome(), String.valueOf(result.error()));
            Map<String, String> env = new HashMap<>();
            for (String entry : Files.readString(new WorkDir(work).log("op-1-1", "stdout").orElseThrow()).split("\0")) {
                int eq = entry.indexOf('=');
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
            Set<String> expected = new TreeSet<>(Set.of("PATH", "HOME", "TMPDIR", "LANG", "MODE", "WEIRD",
                    "GROVE_OPERATION_ID", "GROVE_JOB_ID", "GROVE_JOB_INDEX", "GROVE_TASK", "GROVE_NODE_ID",
                    "GROVE_CHECKPOINT_FILE",
                    // set by bash itself
                    "PWD", "SHLVL", "_"));
            assertEquals(expected, new TreeSet<>(env.keySet()), "the job's whole environment");
            assertEquals("/usr/local/bin:/usr/bin:/bin", env.get("PATH"));
            assertEquals("it's \"$(quoted)\"\nnewline", env.get("WEIRD"), "values arrive byte for byte, never evaluated");
            Path sandbox = new WorkDir(work).sandbox("op-1-1");
            assertEquals(sandbox.toString(), env.get("HOME"));
            assertEquals(sandbox.resolve("tmp").toString(), env.get("TMPDIR"));
            assertEquals(sandbox.resolve(".grove-checkpoint").toString(), env.get("GROVE_CHECKPOINT_FILE"));
        }
    }

    @Test
    void anInvalidEnvNameFailsTheJobWithoutRunningIt(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(job("op-1-1", "touch ran", Map.of("A=B; touch x", "1")));
            FinishedJob result = f.resultOf("op-1-1");
            assertEquals(FinishedJob.Outcome.FAILED, result.outcome());
            assertTrue(result.error().contains("is not a valid variable name"), result.error());
        }
    }

    @Test
    void logsAndRecordsAreTheAgentsAlone(@TempDir Path work) throws Exception {
        try (AgentFixture f = new AgentFixture(work)) {
            f.start(job("op-1-1", "echo secret", Map.of()));
            f.resultOf("op-1-1");
            WorkDir dirs = new WorkDir(work);
            assertEquals("rw-------", mode(dirs.jobDir("op-1-1").resolve("stdout")));
            assertEquals("rw-------", mode(dirs.jobDir("op-1-1").resolve("result.json")));
            assertEquals("rwx------", mode(work.resolve("logs")));
            dirs.archiveLogs("op-1-1");
            assertEquals("rwx------", mode(work.resolve("logs").resolve("op-1-1")));
            assertEquals("rw-------", mode(work.resolve("logs").resolve("op-1-1").resolve("stdout")));
        }
    }

    @Test
    void eachRunningJobHasItsOwnUidAndCannotReadOrSignalAnother(@TempDir Path work) throws Exception {
        assumeRoot();
        try (AgentFixture f = new AgentFixture(work, JobUsers.forAgent(List.of(), UIDS, true, PASSWD))) {
            f.start(job("op-1-1", "echo $$; exec sleep 30", Map.of("SECRET", "carols-key")));
            long carol = f.started.take();
            WorkDir dirs = new WorkDir(work, true);
            Path carolsLog = dirs.jobDir("op-1-1").resolve("stdout");
            f.start(job("op-1-2", "id -u; cat /proc/" + carol + "/environ; cat " + carolsLog + "; kill -9 " + carol
                    + "; ls " + dirs.sandbox("op-1-1") + "; exit 0", Map.of()));
            FinishedJob bob = f.resultOf("op-1-2");
            assertEquals(FinishedJob.Outcome.COMPLETED, bob.outcome(), String.valueOf(bob.error()));
            String out = Files.readString(dirs.log("op-1-2", "stdout").orElseThrow());
            String err = Files.readString(dirs.log("op-1-2", "stderr").orElseThrow());
            assertFalse(out.contains("carols-key"), "read another job's environment: " + out);
            assertFalse(out.contains(Long.toString(carol)), "read another job's live log: " + out);
            // its /proc shows it no other job's process, and the other job's files are not even there
            assertTrue(err.contains("/proc/" + carol + "/environ: No such file or directory"), err);
            assertTrue(err.contains("kill: (" + carol + ") - Operation not permitted"), err);
            assertTrue(err.contains(carolsLog + ": No such file or directory"), err);
            assertTrue(ProcessHandle.of(carol).map(ProcessHandle::isAlive).orElse(false), "the other job still runs");
            int bobUid = Integer.parseInt(out.lines().findFirst().orElseThrow().trim());
            assertTrue(bobUid >= 43000 && bobUid <= 43009, "a uid of the range: " + bobUid);
            assertNotEquals(owner(carol), bobUid, "a uid of its own");
        }
    }

    @Test
    void processesThatLeaveTheJobsGroupDieWithIt(@TempDir Path work) throws Exception {
        assumeRoot();
        try (AgentFixture f = new AgentFixture(work, JobUsers.forAgent(List.of(), UIDS, true, PASSWD))) {
            f.start(job("op-1-1", "setsid sleep 400 </dev/null >/dev/null 2>&1 & echo $!; sleep 0.2", Map.of()));
            FinishedJob result = f.resultOf("op-1-1");
            assertEquals(FinishedJob.Outcome.COMPLETED, result.outcome(), String.valueOf(result.error()));
            long escaped = Long.parseLong(Files.readString(new WorkDir(work, true).log("op-1-1", "stdout").orElseThrow()).trim());
            assertFalse(running(escaped), "the process that left the job's group outlived the job");
        }
    }

    static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static int owner(long pid) throws java.io.IOException {
        return (Integer) Files.getAttribute(Path.of("/proc", Long.toString(pid)), "unix:uid");
    }

    /** Whether a job was kept from {@code path}: refused, or (in its own /tmp) not even there. */
    static boolean keptFrom(String err, Object path) {
        return err.contains(path + ": Permission denied") || err.contains(path + ": No such file or directory");
    }

    static String mode(Path path) throws java.io.IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
