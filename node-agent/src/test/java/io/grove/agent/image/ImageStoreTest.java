package io.grove.agent.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node's cache of images: found again at start, bounded, least recently used first, never one in use. */
class ImageStoreTest {

    private static final ImageTools TOOLS = new ImageTools(Path.of("/usr/bin/skopeo"), Path.of("/usr/bin/umoci"),
            Path.of("/usr/bin/crun"), "crun 1.8.1", false);

    private static String digest(char c) {
        return "sha256:" + String.valueOf(c).repeat(64);
    }

    private static void entry(Path images, char c, long bytes, long usedAt) throws Exception {
        Path dir = Files.createDirectories(images.resolve("sha256-" + String.valueOf(c).repeat(64)));
        Files.createDirectories(dir.resolve("rootfs"));
        Files.writeString(dir.resolve("image.json"), "{\"reference\": \"r/" + c + ":1\", \"digest\": \"" + digest(c)
                + "\", \"architecture\": \"amd64\", \"os\": \"linux\", \"bytes\": " + bytes + "}");
        Files.setLastModifiedTime(dir.resolve("image.json"), FileTime.fromMillis(usedAt));
    }

    @Test
    void theLeastRecentlyUsedImagesGoFirstButNeverOneInUse(@TempDir Path dir) throws Exception {
        Path images = dir.resolve("images");
        entry(images, 'a', 400, 1_000);
        entry(images, 'b', 400, 2_000);
        entry(images, 'c', 400, 3_000);
        Files.createDirectories(images.resolve(".pull-" + "d".repeat(64)));
        Files.createDirectories(images.resolve("sha256-" + "e".repeat(64)));
        ImageSettings settings = new ImageSettings(true, 1_000, null, List.of(), null, null);
        ImageStore store = ImageStore.open(images, TOOLS, settings, 0);
        assertEquals(3, store.count(), "complete entries are found again");
        assertFalse(Files.exists(images.resolve(".pull-" + "d".repeat(64))), "a crashed pull is removed");
        assertFalse(Files.exists(images.resolve("sha256-" + "e".repeat(64))), "an entry without its record is removed");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(images.resolve("policy.json"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(images)));

        assertEquals(List.of(digest('b')), store.evict(Set.of(digest('a'))), "a is older but in use: b goes");
        assertEquals(800, store.bytes());
        assertTrue(store.cached(digest('a')).isPresent());
        assertFalse(Files.exists(images.resolve("sha256-" + "b".repeat(64))));
        assertEquals(List.of(), store.evict(Set.of()), "within its size now");
        store.used(digest('a'), 5_000);
        entry(images, 'f', 400, 6_000);
        ImageStore reopened = ImageStore.open(images, TOOLS, settings, 0);
        assertEquals(List.of(digest('c')), reopened.evict(Set.of()), "c was used least recently");
    }

    @Test
    void theNodesCredentialsMustBeRootsAlone(@TempDir Path dir) throws Exception {
        Path auth = dir.resolve("auth.json");
        Files.writeString(auth, "{}");
        Files.setPosixFilePermissions(auth, PosixFilePermissions.fromString("rw-r--r--"));
        Exception open = assertThrows(java.io.IOException.class, () -> ImageStore.checkAuthFile(auth));
        assertTrue(open.getMessage().contains("readable by root only"), open.getMessage());
        Files.setPosixFilePermissions(auth, PosixFilePermissions.fromString("rw-------"));
        if (io.grove.agent.job.JobUsers.processIsRoot()) {
            ImageStore.checkAuthFile(auth);
        }
    }

    @Test
    void registriesOnLoopbackAndThoseNamedAreReachedWithoutTls() {
        ImageSettings settings = new ImageSettings(true, 1, null, List.of("registry.lan:5000"), null, null);
        for (String registry : List.of("registry.lan:5000", "localhost", "localhost:5000", "127.0.0.1:5055", "127.1.2.3")) {
            assertTrue(settings.insecure(registry), registry);
        }
        for (String registry : List.of("registry.lan", "docker.io", "127.0.0.1.evil.example:5000", "10.0.0.1:5000")) {
            assertFalse(settings.insecure(registry), registry);
        }
    }

    @Test
    void whatTheRegistrySaidIsToldPlainly() {
        assertTrue(ImageStore.explain("time=\"x\" level=fatal msg=\"Error parsing image name \\\"docker://r/x:1\\\": reading "
                + "manifest 1 in r/x: manifest unknown: manifest unknown\"").startsWith("no such image in the registry ("));
        assertTrue(ImageStore.explain("level=fatal msg=\"reading manifest 1 in r/x: unauthorized: authentication required\"")
                .startsWith("the registry refused the node's credentials"));
        assertTrue(ImageStore.explain("level=fatal msg=\"pinging container registry r: Get \\\"http://r/v2/\\\": dial tcp "
                + "127.0.0.1:1: connect: connection refused\"").startsWith("the registry cannot be reached"));
        assertTrue(ImageStore.explain("something else entirely").startsWith("the pull failed (something else entirely)"));
        assertEquals(-1, ImageStore.manifestBytes("{\"manifests\": []}".getBytes()));
        assertEquals(130, ImageStore.manifestBytes(("{\"config\": {\"size\": 30}, \"layers\": [{\"size\": 60}, {\"size\": 40}]}")
                .getBytes()));
    }
}
