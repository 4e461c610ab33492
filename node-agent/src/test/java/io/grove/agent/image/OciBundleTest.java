package io.grove.agent.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.agent.gpu.Gpu;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an image job's bundle gives it, and what it does not. */
class OciBundleTest {

    private static final ImageConfig IMAGE = new ImageConfig("r/x:1", "sha256:" + "a".repeat(64), "amd64", "linux",
            List.of("PATH=/opt/bin:/bin", "LANG=de_DE.UTF-8", "FROM_IMAGE=1", "HOME=/root"), List.of(), List.of("/bin/sh"), "",
            0);

    @Test
    void theImagesEnvComesFirstThenTheJobsAndTheBaseGivesWay() {
        Map<String, String> job = new LinkedHashMap<>();
        job.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        job.put("HOME", "/work/sandbox");
        job.put("LANG", "C.UTF-8");
        job.put("MODE", "fast");
        Map<String, String> env = OciBundle.environment(IMAGE, job, Map.of("MODE", "fast"));
        assertEquals("/opt/bin:/bin", env.get("PATH"), "the image's PATH, unless the spec sets one");
        assertEquals("de_DE.UTF-8", env.get("LANG"));
        assertEquals("/work/sandbox", env.get("HOME"), "the job's HOME is its sandbox");
        assertEquals("1", env.get("FROM_IMAGE"));
        assertEquals("fast", env.get("MODE"));
        assertEquals("/x", OciBundle.environment(IMAGE, Map.of("PATH", "/x"), Map.of("PATH", "/x")).get("PATH"),
                "the spec's own PATH wins");
    }

    @Test
    void theBundleIsTheAgentsAloneAndHoldsTheJobToItsUserMountsAndDevices(@TempDir Path dir) throws Exception {
        Path rootfs = Files.createDirectories(dir.resolve("rootfs"));
        Path sandbox = Files.createDirectories(dir.resolve("sandboxes/op-1-1"));
        OciBundle.write(dir.resolve("bundle"), new OciBundle.Spec(List.of("/bin/sh", "-c", "true"), Map.of("A", "1"), 20001,
                20001, rootfs, sandbox, dir.resolve("sandboxes"), 64L << 20, List.of(new Gpu(1, "GPU-b", "A100", 1, 41)), 8L << 20));
        Path file = dir.resolve("bundle/config.json");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        JsonNode config = new com.fasterxml.jackson.databind.ObjectMapper().readTree(file.toFile());
        assertEquals(20001, config.at("/process/user/uid").asInt());
        assertTrue(config.at("/process/noNewPrivileges").asBoolean());
        for (String set : List.of("bounding", "effective", "permitted", "inheritable", "ambient")) {
            assertEquals(0, config.at("/process/capabilities/" + set).size(), set);
        }
        assertTrue(config.at("/root/readonly").asBoolean());
        assertEquals(sandbox.toString(), config.at("/process/cwd").asText());
        String mounts = config.get("mounts").toString();
        assertTrue(mounts.contains("\"destination\":\"" + dir.resolve("sandboxes") + "\",\"type\":\"tmpfs\""), mounts);
        assertTrue(mounts.contains("\"destination\":\"/tmp\",\"type\":\"bind\",\"source\":\"" + sandbox.resolve("tmp") + "\""),
                mounts);
        assertTrue(mounts.contains("size=" + (64L << 20)), "/dev/shm as large as its memory: " + mounts);
        JsonNode devices = config.at("/linux/devices");
        assertEquals("/dev/nvidia41", devices.get(0).get("path").asText());
        assertEquals(195, devices.get(0).get("major").asInt());
        String namespaces = config.at("/linux/namespaces").toString();
        assertTrue(namespaces.contains("pid") && namespaces.contains("mount") && namespaces.contains("ipc")
                && !namespaces.contains("network"), namespaces);
        assertEquals("RLIMIT_FSIZE", config.at("/process/rlimits/0/type").asText(), "no file past its disk limit");
        assertEquals(8L << 20, config.at("/process/rlimits/0/hard").asLong());
    }

    @Test
    void anImageThatCannotRunTheJobSaysWhy(@TempDir Path dir) throws Exception {
        Path rootfs = Files.createDirectories(dir.resolve("rootfs"));
        Files.setPosixFilePermissions(rootfs, PosixFilePermissions.fromString("rwx------"));
        PullException closed = assertThrows(PullException.class, () -> OciBundle.args(IMAGE, rootfs, "true", "r/x:1"));
        assertTrue(closed.getMessage().contains("its root directory is mode rwx------"), closed.getMessage());
        Files.setPosixFilePermissions(rootfs, PosixFilePermissions.fromString("rwxr-xr-x"));
        PullException noShell = assertThrows(PullException.class, () -> OciBundle.args(IMAGE, rootfs, "true", "r/x:1"));
        assertTrue(noShell.getMessage().contains("has no /bin/sh"), noShell.getMessage());
        PullException noEntry = assertThrows(PullException.class, () -> OciBundle.args(IMAGE, rootfs, "", "r/x:1"));
        assertTrue(noEntry.getMessage().contains("its entry point /bin/sh is not in the image"), noEntry.getMessage());
        Files.createDirectories(rootfs.resolve("bin"));
        Files.writeString(rootfs.resolve("bin/sh"), "");
        assertEquals(List.of("/bin/sh", "-c", "true"), OciBundle.args(IMAGE, rootfs, "true", "r/x:1"));
        assertEquals(List.of("/bin/sh"), OciBundle.args(IMAGE, rootfs, null, "r/x:1"));
    }

    @Test
    void theMountPointsAreMadeBeforeAContainerStartsAndNeverThroughALinkTheImagePlanted(@TempDir Path dir) throws Exception {
        Path rootfs = Files.createDirectories(dir.resolve("rootfs"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        // the image's /sys is a link out of it: nothing is made through it, the runtime resolves it within the root
        Files.createSymbolicLink(rootfs.resolve("sys"), outside);
        Path sandboxes = dir.resolve("work/sandboxes");
        // jobs of one image start at once: every start makes what is missing, none fails for another's
        java.util.concurrent.ExecutorService starts = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int i = 0; i < 16; i++) {
                int job = i;
                done.add(starts.submit(() -> {
                    OciBundle.write(dir.resolve("bundle-" + job), new OciBundle.Spec(List.of("/bin/sh", "-c", "true"),
                            Map.of(), 20001, 20001, rootfs, sandboxes.resolve("op-1-" + job), sandboxes, 64L << 20,
                            List.of(), 8L << 20));
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> future : done) {
                future.get();
            }
        } finally {
            starts.shutdownNow();
        }
        for (String point : List.of("proc", "dev", "tmp", "var/tmp")) {
            assertTrue(Files.isDirectory(rootfs.resolve(point), java.nio.file.LinkOption.NOFOLLOW_LINKS), point);
        }
        assertTrue(Files.isDirectory(rootfs.resolve(sandboxes.toString().substring(1))), "the sandboxes' mount point");
        assertTrue(Files.notExists(rootfs.resolve(sandboxes.toString().substring(1)).resolve("op-1-0")),
                "a job's own sandbox is made in its container's tmpfs, not in the shared root");
        assertTrue(Files.isSymbolicLink(rootfs.resolve("sys")));
        try (var listed = Files.list(outside)) {
            assertEquals(0, listed.count(), "nothing made through the image's link");
        }
        if (Files.isRegularFile(Path.of("/etc/resolv.conf"))) {
            assertTrue(Files.isRegularFile(rootfs.resolve("etc/resolv.conf"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        }
    }
}
