package io.grove.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Image references as Docker writes them, made whole, and what is wrong with bad ones. */
class ImageReferenceTest {

    private static final String HEX = "0123456789abcdef".repeat(4);

    @Test
    void referencesAreMadeWhole() {
        assertEquals("docker.io/library/ubuntu:latest", ImageReference.parse("ubuntu").toString());
        assertEquals("docker.io/library/ubuntu:22.04", ImageReference.parse("ubuntu:22.04").toString());
        assertEquals("docker.io/team/tool:1", ImageReference.parse("team/tool:1").toString());
        ImageReference local = ImageReference.parse("127.0.0.1:5000/team/tool:1.2");
        assertEquals("127.0.0.1:5000", local.registry());
        assertEquals("team/tool", local.repository());
        assertEquals("1.2", local.tag());
        assertFalse(local.pinned());
        assertEquals("127.0.0.1:5000/team/tool@sha256:" + HEX, local.pinned("sha256:" + HEX));
        ImageReference pinned = ImageReference.parse("localhost/x@sha256:" + HEX);
        assertTrue(pinned.pinned());
        assertEquals(null, pinned.tag());
        assertEquals("localhost/x@sha256:" + HEX, pinned.toString());
        assertEquals("registry.example/a/b:t@sha256:" + HEX, ImageReference.parse("registry.example/a/b:t@sha256:" + HEX).toString());
        assertEquals("registry.example/a__b/c-d.e:t", ImageReference.parse("registry.example/a__b/c-d.e:t").toString());
    }

    @Test
    void badReferencesSayWhatIsWrong() {
        String[][] cases = {
            {"", "empty"}, {"Ubuntu", "valid name component"}, {"ubuntu:", "tag"}, {"ubuntu:.x", "tag"},
            {"a b", "space"}, {"ubuntu@sha256:abc", "64 lowercase hex"}, {"-rf/x", "valid name component"},
            {"registry.example/", "valid name component"}, {"a//b", "valid name component"},
            {"bad_host.example:5000:x/y", "registry"}, {"x".repeat(600), "characters long"},
            {"ubuntu\u00e9", "non-ASCII"}, {"@sha256:" + HEX, "no name"},
        };
        for (String[] bad : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ImageReference.parse(bad[0]),
                    bad[0]);
            assertTrue(e.getMessage().contains(bad[1]), bad[0] + ": " + e.getMessage());
        }
    }

    @Test
    void aTaskKeepsItsReferenceWholeAndRefusesABadOne() {
        assertEquals("docker.io/library/busybox:latest",
                new TaskSpec("main", 1, "", null, null, 0, "busybox").image());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TaskSpec("main", 1, "x", null, null, 0, "BAD"));
        assertTrue(e.getMessage().contains("task main: docker_image"), e.getMessage());
    }
}
