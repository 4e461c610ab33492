package io.grove.agent.image;

import io.grove.agent.job.SystemPrograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The programs that run jobs in images, each by absolute path and, for a root agent, owned by root
 * and writable by nobody else: {@code skopeo} pulls, {@code umoci} unpacks, the OCI runtime
 * ({@code crun}) runs. They are started with {@link SystemPrograms#ENVIRONMENT} only.
 *
 * @param runtimeVersion the runtime's first line of {@code --version}, as the handshake names it
 * @param hideUnified whether the runtime must run where the cgroup v2 hierarchy of a hybrid host is
 *     hidden: {@code crun} refuses a hybrid host whose v2 hierarchy holds a controller, even though
 *     it manages no cgroup for Grove (the job's own cgroup is Grove's, joined before the runtime starts)
 */
public record ImageTools(Path skopeo, Path umoci, Path runtime, String runtimeVersion, boolean hideUnified) {

    static final List<Path> SKOPEO = List.of(Path.of("/usr/bin/skopeo"), Path.of("/bin/skopeo"));
    static final List<Path> UMOCI = List.of(Path.of("/usr/bin/umoci"), Path.of("/bin/umoci"));
    static final List<Path> CRUN = List.of(Path.of("/usr/bin/crun"), Path.of("/bin/crun"));
    /** Where a hybrid host's cgroup v2 hierarchy is mounted. */
    static final Path UNIFIED = Path.of("/sys/fs/cgroup/unified/cgroup.controllers");

    /** What was found: the tools, or why this node runs no image jobs. */
    public record Found(ImageTools tools, String why) {
    }

    /**
     * Finds the tools.
     *
     * @param root whether the agent runs as root (images need it: the runtime makes namespaces and
     *     mounts, and runs each job as its own uid)
     * @param runtime the runtime to use, or {@code null} for {@code crun} where Debian puts it
     */
    public static Found find(boolean root, Path runtime) {
        if (!root) {
            return new Found(null, "jobs in container images need the agent to run as root");
        }
        try {
            Path skopeo = SystemPrograms.locate(SKOPEO, "skopeo", true);
            Path umoci = SystemPrograms.locate(UMOCI, "umoci", true);
            Path oci = SystemPrograms.locate(runtime == null ? CRUN : List.of(runtime), "crun", true);
            String version = version(oci);
            return new Found(new ImageTools(skopeo, umoci, oci, version, hybridWithControllers(UNIFIED)), null);
        } catch (IOException e) {
            return new Found(null, e.getMessage());
        }
    }

    /** Whether a hybrid host's v2 hierarchy holds a controller (a file that lists them, not empty). */
    static boolean hybridWithControllers(Path controllers) {
        try {
            return Files.isRegularFile(controllers) && !Files.readString(controllers).isBlank();
        } catch (IOException e) {
            return false;
        }
    }

    private static String version(Path program) throws IOException {
        Process process = SystemPrograms.fixed(List.of(program.toString(), "--version")).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readNBytes(4096), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException(program + " --version failed: " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        String first = out.strip().lines().findFirst().orElse(program.getFileName().toString());
        return first.replace(" version", "");
    }
}
