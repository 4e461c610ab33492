package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.agent.image.ImageConfig;
import io.grove.agent.image.ImageMeters;
import io.grove.agent.image.ImagePulls;
import io.grove.agent.image.ImageSettings;
import io.grove.agent.image.ImageStore;
import io.grove.agent.image.ImageTools;
import io.grove.agent.image.PullException;
import io.grove.core.operation.ImageReference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a job waiting for its image waits for, step by step: the image threads and the agent's
 * thread are queues the test runs by hand; skopeo, umoci and the registry are real.
 */
class ImagePullsTest {

    @BeforeAll
    static void tools() {
        String missing = TestRegistry.missing();
        Assumptions.assumeTrue(missing == null, missing);
    }

    /** Runs what it is given only when told. */
    static final class Queue implements Executor {
        final Deque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            while (!tasks.isEmpty()) {
                tasks.poll().run();
            }
        }
    }

    @Test
    void aJobSaysWhatItWaitsForAndJobsOfOneImageShareOnePull(@TempDir Path dir) throws Exception {
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null)) {
            TestRegistry.Image plain = TestRegistry.Image.plain();
            String ref = registry.push("team/big", "1", new TestRegistry.Image(plain.files(), plain.env(), List.of(),
                    List.of("/bin/sh"), null, 3, true));
            ImageSettings settings = new ImageSettings(true, ImageSettings.DEFAULT_CACHE_BYTES, null, List.of(registry.host()),
                    Duration.ofSeconds(60), null);
            ImageTools tools = ImageTools.find(true, null).tools();
            ImageStore store = ImageStore.open(dir.resolve("images"), tools, settings, 0);
            Queue workers = new Queue();
            Queue agent = new Queue();
            long[] now = {1_000};
            List<String> submitted = new ArrayList<>();
            List<Long> finished = new ArrayList<>();
            ImagePulls pulls = new ImagePulls(store, workers, agent::execute, () -> now[0], 60_000, new ImagePulls.Broker() {
                @Override
                public long submitPull(String digest) {
                    submitted.add(digest);
                    return 7;
                }

                @Override
                public void finished(long taskId) {
                    finished.add(taskId);
                }
            }, new ImageMeters());
            List<String> told = new ArrayList<>();
            ImagePulls.Waiter waiter = new ImagePulls.Waiter() {
                @Override
                public void ready(ImageConfig image, long pullMs) {
                    told.add("ready " + image.digest() + " " + pullMs);
                }

                @Override
                public void failed(String why) {
                    told.add("failed " + why);
                }
            };
            ImageReference image = ImageReference.parse(ref);
            pulls.need("op-1-1", image, waiter);
            pulls.need("op-1-2", image, waiter);
            assertEquals("resolving " + ref, pulls.preparing("op-1-1"));
            assertEquals(1, workers.tasks.size(), "one resolution for both jobs");
            workers.runAll();
            agent.runAll();
            assertEquals(1, submitted.size(), "one pull for both jobs, queued in the broker");
            assertEquals("waiting for the node's broker to pull " + ref, pulls.preparing("op-1-2"));
            pulls.allocated(submitted.get(0));
            assertTrue(pulls.preparing("op-1-1").matches("pulling " + java.util.regex.Pattern.quote(ref) + " \\(0 of [45] MiB\\)"),
                    pulls.preparing("op-1-1"));
            now[0] += 1_500;
            workers.runAll();
            agent.runAll();
            agent.runAll();
            assertEquals(List.of(7L), finished, "the broker task ends with the pull");
            assertEquals(2, told.size(), told.toString());
            assertEquals("ready " + submitted.get(0) + " 1500", told.get(0));
            assertEquals(null, pulls.preparing("op-1-1"), "it waits no more");
            assertEquals(java.util.Set.of(submitted.get(0)), pulls.inUse(), "held by its jobs");
            pulls.release(submitted.get(0));
            pulls.release(submitted.get(0));
            assertEquals(java.util.Set.of(), pulls.inUse());

            // a reference that fails is remembered: the next job fails at once, without a registry call
            ImageReference unknown = ImageReference.parse(registry.host() + "/team/none:1");
            pulls.need("op-2-1", unknown, waiter);
            workers.runAll();
            agent.runAll();
            assertTrue(told.get(2).startsWith("failed cannot resolve " + unknown + ": no such image"), told.toString());
            pulls.need("op-2-2", unknown, waiter);
            assertEquals(0, workers.tasks.size(), "not tried again");
            agent.runAll();
            assertTrue(told.get(3).contains("not tried again"), told.toString());
            now[0] += 61_000;
            pulls.need("op-2-3", unknown, waiter);
            assertEquals(1, workers.tasks.size(), "tried again once the failure is forgotten");
        }
    }

    /**
     * An image whose layers are small but unpack to far more (a gigabyte of zeros gzips to a
     * megabyte) is refused before anything is unpacked: its size is counted first, bounded by the
     * node's image cache.
     */
    @Test
    void anImageThatUnpacksPastTheCacheIsRefusedBeforeItIsWritten(@TempDir Path dir) throws Exception {
        String missing = TestRegistry.missing();
        org.junit.jupiter.api.Assumptions.assumeTrue(missing == null, missing);
        try (TestRegistry registry = TestRegistry.start(dir.resolve("registry"), null, null)) {
            TestRegistry.Image plain = TestRegistry.Image.plain();
            java.util.Map<String, String> files = new java.util.HashMap<>(plain.files());
            files.put("/zeros", "\0".repeat(48 << 20));
            String ref = registry.push("team/bomb", "1", new TestRegistry.Image(files, plain.env(), List.of(),
                    List.of("/bin/sh"), null, 0, true));
            ImageSettings settings = new ImageSettings(true, 16L << 20, null, List.of(registry.host()),
                    Duration.ofSeconds(60), null);
            ImageStore store = ImageStore.open(dir.resolve("images"), ImageTools.find(true, null).tools(), settings, 0);
            ImageReference image = ImageReference.parse(ref);
            ImageStore.Resolved resolved = store.resolve(image);
            assertTrue(resolved.bytes() < 16L << 20, "its layers are small: " + resolved.bytes());
            PullException refused = org.junit.jupiter.api.Assertions.assertThrows(PullException.class,
                    () -> store.pull(image, resolved.digest()));
            assertTrue(refused.getMessage().contains("unpacks to more than 16 MiB"), refused.getMessage());
            try (var left = java.nio.file.Files.walk(dir.resolve("images"))) {
                assertTrue(left.noneMatch(p -> p.getFileName().toString().equals("zeros")), "nothing of it unpacked");
            }
        }
    }
}
