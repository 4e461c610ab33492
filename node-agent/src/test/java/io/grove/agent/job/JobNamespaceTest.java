package io.grove.agent.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    void onAWorkDirectoryMountedNodevTheJobsDevIsCopiedAndWorks(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "mount namespaces need root");
        Path nodev = java.nio.file.Files.createDirectory(dir.resolve("nodev"));
        assertEquals(0, new ProcessBuilder("/usr/bin/mount", "-t", "tmpfs", "-o", "size=4m,nodev", "grove-test",
                nodev.toString()).inheritIO().start().waitFor());
        try {
            Path template = JobDevices.template(SystemPrograms.find(true), nodev.resolve("dev"), List.of());
            assertFalse(JobDevices.opensNodes(template), "a nodev filesystem's nodes do not open");
            assertNull(JobNamespace.probe(SystemPrograms.find(true), nodev.resolve("probe")));
        } finally {
            new ProcessBuilder("/usr/bin/umount", "-l", nodev.toString()).inheritIO().start().waitFor();
        }
    }

    @Test
    void theMountTableHasEveryMountInOrderAndEscapesItsFields() {
        JobNamespace namespace = new JobNamespace(Path.of("/tmp/grove work/jobs/op-1-1/sandbox"),
                Path.of("/tmp/grove work/jobs/op-1-1"), 1 << 20, Path.of("/unused"), Path.of("/unused-dev"), true, List.of());
        String table = namespace.table();
        List<String> lines = table.lines().toList();
        assertEquals("grove-dev /dev tmpfs mode=0755,size=64k,nosuid,noexec 0 0", lines.get(0), "/dev first: " + table);
        assertEquals("/proc/self/fd/7 /dev none bind,nosuid,noexec 0 0", new JobNamespace(namespace.sandbox(),
                namespace.keep(), 1 << 20, namespace.mounts(), Path.of("/job-dev"), false, List.of()).table().lines()
                .findFirst().orElseThrow(), "or the job's own directory of links, bound");
        assertEquals("grove-shm /dev/shm tmpfs size=1048576,mode=1777,nosuid,nodev,X-mount.mkdir=0755 0 0", lines.get(2));
        assertEquals("grove-mqueue /dev/mqueue mqueue nosuid,nodev,noexec,X-mount.mkdir=0755 0 0", lines.get(3),
                "a message-queue filesystem of its own IPC namespace");
        assertEquals("/proc/self/fd/9 /tmp none bind,nosuid,nodev 0 0", lines.get(lines.size() - 3),
                "/tmp last of the private directories: " + table);
        assertEquals("/proc/self/fd/8 /tmp/grove\\040work/jobs/op-1-1 none bind,nosuid,nodev,X-mount.mkdir=0711 0 0",
                lines.get(lines.size() - 2));
        assertEquals("grove-proc /proc proc hidepid=invisible,nosuid,nodev,noexec 0 0",
                lines.get(lines.size() - 1));
        assertEquals("a\\011b\\012c\\134d", JobNamespace.escape("a\tb\nc\\d"));
    }

    @Test
    void whereAMountIsRefusedTheProbeSaysWhy(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "mount namespaces need root");
        SystemPrograms real = SystemPrograms.find(true);
        // a mount that fails, as in a container without CAP_SYS_ADMIN
        SystemPrograms refused = real.withMount(Path.of("/usr/bin/false"));
        assertNotNull(JobNamespace.probe(refused, dir.resolve("probe")));
        SystemPrograms none = real.withoutNamespace();
        assertNotNull(JobNamespace.probe(none, dir.resolve("probe")));
    }
}
