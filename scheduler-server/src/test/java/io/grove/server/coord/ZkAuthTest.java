package io.grove.server.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group's state in ZooKeeper belongs to the schedulers: a client without their identity (a job
 * on a node, any user of the ensemble) can neither list nor read nor delete it, and a scheduler
 * refuses a group whose state is open to everyone.
 */
class ZkAuthTest {

    static final ZkAuth GROUP = ZkAuth.of("grove", "the-group-secret-0123456789");
    static final ZkLayout LAYOUT = new ZkLayout("/grove");

    TestingServer server;
    CuratorFramework outsider;

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(true);
        outsider = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryNTimes(0, 100));
        outsider.start();
        outsider.blockUntilConnected();
    }

    @AfterEach
    void stop() throws Exception {
        outsider.close();
        server.close();
    }

    private ZkCoordination scheduler(ZkAuth auth) throws Exception {
        ZkCoordination member = ZkCoordination.create(server.getConnectString(), LAYOUT, Duration.ofSeconds(3), "s1", auth);
        member.start(signal -> { });
        return member;
    }

    @Test
    void aClientWithoutTheGroupsIdentityCannotListReadOrDeleteItsState() throws Exception {
        try (ZkCoordination member = scheduler(GROUP)) {
            Epoch epoch = member.claimEpoch();
            member.write(epoch, List.of(new Coordination.Create(LAYOUT.logRecord(), "acknowledged".getBytes(
                    StandardCharsets.UTF_8), false, true)));
            for (String path : List.of(LAYOUT.root(), LAYOUT.log(), LAYOUT.epoch(), LAYOUT.election())) {
                List<ACL> acl = member.client().getACL().forPath(path);
                assertTrue(acl.stream().noneMatch(a -> a.getId().getScheme().equals("world")), path + ": " + acl);
                assertEquals("digest", acl.get(0).getId().getScheme(), path + ": " + acl);
            }
            assertThrows(KeeperException.NoAuthException.class, () -> outsider.getACL().forPath(LAYOUT.root()));
            // what a job did to an open group: list the log, then delete it all
            assertThrows(KeeperException.NoAuthException.class, () -> outsider.getChildren().forPath(LAYOUT.log()));
            String record = member.children(LAYOUT.log()).get(0);
            assertThrows(KeeperException.NoAuthException.class,
                    () -> outsider.getData().forPath(LAYOUT.log() + "/" + record));
            assertThrows(KeeperException.NoAuthException.class,
                    () -> outsider.delete().forPath(LAYOUT.log() + "/" + record));
            assertThrows(KeeperException.NoAuthException.class, () -> outsider.setData().forPath(LAYOUT.epoch(), new byte[8]));
            assertThrows(KeeperException.NoAuthException.class, () -> outsider.create().forPath(LAYOUT.log() + "/forged"));
            // another identity fares no better
            try (CuratorFramework other = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                    .retryPolicy(new RetryNTimes(0, 100)).authorization("digest", "grove:guessed-password-000000".getBytes(
                            StandardCharsets.UTF_8)).build()) {
                other.start();
                other.blockUntilConnected();
                assertThrows(KeeperException.NoAuthException.class, () -> other.getChildren().forPath(LAYOUT.log()));
            }
            assertEquals(1, member.children(LAYOUT.log()).size(), "the state is whole");
        }
    }

    @Test
    void aSchedulerRefusesAGroupWhoseStateIsOpenToEveryone() throws Exception {
        try (ZkCoordination open = scheduler(null)) {
            open.claimEpoch();
            assertTrue(outsider.getACL().forPath(LAYOUT.log()).stream().anyMatch(a -> a.getId().getScheme().equals("world")));
        }
        CoordinationException refused = assertThrows(CoordinationException.class, () -> scheduler(GROUP).close());
        assertTrue(refused.getMessage().contains("is open to everyone"), refused.getMessage());
        assertTrue(refused.getMessage().contains("setAcl -R /grove"), refused.getMessage());
        assertFalse(refused.getMessage().contains(GROUP.toString().split(":")[1] + "0123"), "no password in messages");
    }

    @Test
    void theAuthFileIsOneLineClosedToOthers(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("zk-auth");
        Files.writeString(file, "grove:the-group-secret-0123456789\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        java.io.IOException open = assertThrows(java.io.IOException.class, () -> ZkAuth.read(file));
        assertTrue(open.getMessage().contains("must be 0600"), open.getMessage());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertEquals("grove", ZkAuth.read(file).user());
        // a Kubernetes secret's file is a link: the file it names is the one checked and read
        assertEquals("grove", ZkAuth.read(Files.createSymbolicLink(dir.resolve("linked"), file)).user());
        assertFalse(ZkAuth.read(file).toString().contains("secret"), "the password is never shown");
        Files.writeString(file, "grove:short\n");
        assertTrue(assertThrows(java.io.IOException.class, () -> ZkAuth.read(file)).getMessage().contains("at least 16"));
        Files.writeString(file, "no-colon-here-at-all-0123456789\n");
        assertThrows(java.io.IOException.class, () -> ZkAuth.read(file));
        Files.writeString(file, "a:0123456789abcdef\nb:0123456789abcdef\n");
        assertTrue(assertThrows(java.io.IOException.class, () -> ZkAuth.read(file)).getMessage().contains("one line"));
    }
}
