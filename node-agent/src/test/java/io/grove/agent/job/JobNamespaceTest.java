package io.grove.agent.job;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent tries a mount namespace at start and gives jobs private directories only where it can make one. */
class JobNamespaceTest {

    @Test
    void aRootAgentHereCanMakeTheNamespaceAndLeavesNothingOfTheTry(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "mount namespaces need root");
        assertNull(JobNamespace.probe(SystemPrograms.find(true), dir.resolve("probe")));
        assertFalse(Files.exists(dir.resolve("probe")));
    }

    @Test
    void aWorkDirectoryWithWhiteSpaceInItsNameIsMountedAsItIs(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "mount namespaces need root");
        // the probe makes a namespace as a job's: its table binds the kept directory again under /tmp
        assertNull(JobNamespace.probe(SystemPrograms.find(true), dir.resolve("a work\tdir \\ here")));
    }

    @Test
    void theMountTableHasEveryMountInOrderAndEscapesItsFields() {
        JobNamespace namespace = new JobNamespace(Path.of("/tmp/grove work/jobs/op-1-1/sandbox"),
                Path.of("/tmp/grove work/jobs/op-1-1"), 1 << 20, Path.of("/unused"));
        String table = namespace.table();
        java.util.List<String> lines = table.lines().toList();
        org.junit.jupiter.api.Assertions.assertEquals(
                "grove-shm /dev/shm tmpfs size=1048576,mode=1777,nosuid,nodev 0 0", lines.get(0));
        org.junit.jupiter.api.Assertions.assertEquals("/proc/self/fd/9 /tmp none bind 0 0", lines.get(lines.size() - 3),
                "/tmp last of the private directories: " + table);
        org.junit.jupiter.api.Assertions.assertEquals(
                "/proc/self/fd/8 /tmp/grove\\040work/jobs/op-1-1 none bind,X-mount.mkdir=0711 0 0", lines.get(lines.size() - 2));
        org.junit.jupiter.api.Assertions.assertEquals("grove-proc /proc proc hidepid=invisible,nosuid,nodev,noexec 0 0",
                lines.get(lines.size() - 1));
        org.junit.jupiter.api.Assertions.assertEquals("a\\011b\\012c\\134d", JobNamespace.escape("a\tb\nc\\d"));
    }

    @Test
    void whereAMountIsRefusedTheProbeSaysWhy(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "mount namespaces need root");
        SystemPrograms real = SystemPrograms.find(true);
        // a mount that fails, as in a container without CAP_SYS_ADMIN
        SystemPrograms refused = new SystemPrograms(real.setsid(), real.setpriv(), real.bash(), real.unshare(),
                Path.of("/usr/bin/false"));
        assertNotNull(JobNamespace.probe(refused, dir.resolve("probe")));
        SystemPrograms none = new SystemPrograms(real.setsid(), real.setpriv(), real.bash(), null, null);
        assertNotNull(JobNamespace.probe(none, dir.resolve("probe")));
    }
}
