package io.grove.agent.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An image's links are followed inside its root, never out to the host's files. */
class RootfsTest {

    @Test
    void linksResolveWithinTheRootWhateverTheySay(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("rootfs"));
        Path host = Files.createDirectories(dir.resolve("host"));
        Files.writeString(host.resolve("sh"), "the host's");
        Files.createDirectories(root.resolve("usr/bin"));
        Files.writeString(root.resolve("usr/bin/dash"), "#!");
        Files.createSymbolicLink(root.resolve("bin"), Path.of("usr/bin"));
        Files.createSymbolicLink(root.resolve("usr/bin/sh"), Path.of("dash"));
        assertTrue(Rootfs.isFile(root, "/bin/sh"), "bin -> usr/bin, sh -> dash");
        assertEquals(root.resolve("usr/bin/dash"), Rootfs.resolve(root, "/bin/sh"));

        // a link that climbs out, or points at an absolute host path, stays inside the root
        Files.createDirectories(root.resolve("evil"));
        Files.createSymbolicLink(root.resolve("evil/up"), Path.of("../../../../host/sh"));
        Files.createSymbolicLink(root.resolve("evil/abs"), host.resolve("sh"));
        assertFalse(Rootfs.isFile(root, "/evil/up"), "../ stops at the root");
        assertEquals(root.resolve("host/sh"), Rootfs.resolve(root, "/evil/up"));
        assertFalse(Rootfs.isFile(root, "/evil/abs"), "an absolute target starts again at the root");
        assertTrue(Rootfs.resolve(root, "/evil/abs").startsWith(root));

        Files.createSymbolicLink(root.resolve("loop"), Path.of("loop"));
        assertEquals(null, Rootfs.resolve(root, "/loop"), "a loop ends");
        assertFalse(Rootfs.isFile(root, "/loop"));

        assertTrue(Rootfs.hasProgram(root, "dash", "/nowhere:/usr/bin"));
        assertFalse(Rootfs.hasProgram(root, "python3", "/usr/bin:/bin"));
        assertTrue(Rootfs.hasProgram(root, "/bin/sh", null));
    }
}
