package io.grove.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The image under test, built once per run from the distribution by deploy/image/build.sh. */
final class GroveImage {

    static final String VERSION = System.getProperty("grove.version", "0.1.0-SNAPSHOT");
    static final String NAME = "grove:" + VERSION;
    private static volatile boolean built;
    private static volatile String failure;

    private GroveImage() {
    }

    static final String ZOOKEEPER = "grove-zookeeper:latest";
    private static volatile boolean zookeeperBuilt;

    /** The ZooKeeper image of deploy/zookeeper, from Debian's package, built once per run. */
    static synchronized String ensureZooKeeperBuilt() throws IOException, InterruptedException {
        if (!zookeeperBuilt) {
            Path root = Path.of(System.getProperty("grove.root", ".."));
            Process build = new ProcessBuilder("bash", root.resolve("deploy/zookeeper/build.sh").toString())
                    .redirectErrorStream(true).start();
            String output = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!build.waitFor(15, TimeUnit.MINUTES) || build.exitValue() != 0) {
                throw new IllegalStateException("deploy/zookeeper/build.sh failed:\n" + output);
            }
            zookeeperBuilt = true;
        }
        return ZOOKEEPER;
    }

    static synchronized String ensureBuilt() throws IOException, InterruptedException {
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
        if (!built) {
            Path root = Path.of(System.getProperty("grove.root", ".."));
            Process build = new ProcessBuilder("bash", root.resolve("deploy/image/build.sh").toString())
                    .redirectErrorStream(true).start();
            String output = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!build.waitFor(15, TimeUnit.MINUTES) || build.exitValue() != 0) {
                failure = "deploy/image/build.sh failed:\n" + output;
                throw new IllegalStateException(failure);
            }
            built = true;
        }
        return NAME;
    }
}
