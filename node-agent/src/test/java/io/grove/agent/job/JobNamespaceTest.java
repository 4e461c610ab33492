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
