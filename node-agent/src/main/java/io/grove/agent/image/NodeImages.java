package io.grove.agent.image;

import io.grove.agent.job.SafeDirs;
import io.grove.agent.job.SystemPrograms;
import io.grove.agent.job.Trees;
import io.grove.http.DaemonThreads;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether and how this node runs jobs in container images: its tools, its cache of images, the
 * runtime's state directory ({@code runtime/} in the work directory, the agent's alone) and the
 * threads that pull; or, on a node without them, why not (said at start and in the handshake).
 */
public final class NodeImages {

    private static final Logger LOG = LoggerFactory.getLogger(NodeImages.class);

    private final ImageTools tools;
    private final ImageStore store;
    private final ImageSettings settings;
    private final Path state;
    private final String why;
    private final ExecutorService workers;
    private final ImageMeters meters = new ImageMeters();

    private NodeImages(ImageTools tools, ImageStore store, ImageSettings settings, Path state, String why) {
        this.tools = tools;
        this.store = store;
        this.settings = settings;
        this.state = state;
        this.why = why;
        this.workers = tools == null ? null : Executors.newFixedThreadPool(2, DaemonThreads.named("grove-agent-images"));
    }

    /** A node that runs no image jobs, for the reason given. */
    public static NodeImages none(String why) {
        return new NodeImages(null, null, ImageSettings.DEFAULTS, null, why);
    }

    /**
     * Finds the tools and opens the cache in {@code workRoot/images}; a node without what images
     * need runs bare jobs only and says why.
     */
    public static NodeImages start(ImageSettings settings, Path workRoot, boolean root) throws IOException {
        if (!settings.enabled()) {
            return none("jobs in container images are turned off on this node (--no-images)");
        }
        ImageTools.Found found = ImageTools.find(root, settings.runtime());
        if (found.tools() == null) {
            LOG.warn("this node runs no jobs in container images: {}", found.why());
            return none(found.why());
        }
        ImageStore store = ImageStore.open(workRoot.resolve("images"), found.tools(), settings, System.currentTimeMillis());
        Path state = SafeDirs.ensure(workRoot.resolve("runtime"), "rwx------");
        NodeImages images = new NodeImages(found.tools(), store, settings, state, null);
        images.sweep();
        LOG.info("jobs in container images run with {} ({}, {}{}); {} images cached ({} MiB of {} MiB)",
                found.tools().runtimeVersion(), found.tools().runtime(), found.tools().skopeo(),
                found.tools().hideUnified() ? "; the cgroup v2 hierarchy of this hybrid host is hidden from the runtime" : "",
                store.count(), store.bytes() >> 20, settings.cacheBytes() >> 20);
        return images;
    }

    public boolean available() {
        return tools != null;
    }

    /** Why this node runs no image jobs, or {@code null} when it runs them. */
    public String why() {
        return why;
    }

    /** What runs image jobs here, as the handshake says it; {@code null} when nothing does. */
    public String runtime() {
        return tools == null ? null : tools.runtimeVersion();
    }

    public ImageStore store() {
        return store;
    }

    public ImageTools tools() {
        return tools;
    }

    public ImageMeters meters() {
        return meters;
    }

    public ImageSettings settings() {
        return settings;
    }

    /** Runs the image threads' work. */
    public ExecutorService workers() {
        return workers;
    }

    /** The runtime's command for {@code args}, as root: its state here, no cgroup of its own. */
    public List<String> runtimeCommand(SystemPrograms programs, List<String> args) {
        List<String> command = new ArrayList<>();
        if (tools.hideUnified()) {
            command.addAll(List.of(programs.unshare().toString(), "--mount", "--propagation", "private", "--",
                    programs.bash().toString(), "--noprofile", "--norc", "-c",
                    "\"$1\" -t tmpfs -o size=4k,ro,nosuid,nodev,noexec grove-no-unified /sys/fs/cgroup/unified "
                            + "&& shift && exec \"$@\"", "grove-runtime", programs.mount().toString()));
        }
        command.addAll(List.of(tools.runtime().toString(), "--root", state.toString(), "--cgroup-manager=disabled"));
        command.addAll(args);
        return command;
    }

    /**
     * Removes what the runtime kept of a container whose processes are gone (they were killed with
     * its cgroup). {@code crun run} removes it itself when the container ends on its own; it stays
     * only when the runtime was killed with the job, and then it is just a directory.
     */
    public void deleteContainer(String id) {
        Path left = state.resolve(id);
        try {
            if (Files.exists(left, LinkOption.NOFOLLOW_LINKS)) {
                Trees.delete(left);
            }
        } catch (IOException e) {
            LOG.warn("container {}: cannot remove its state: {}", id, e.getMessage());
        }
    }

    /** At start: the state of containers a previous run left (their processes were killed with their cgroups). */
    private void sweep() throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(state)) {
            for (Path entry : entries) {
                Trees.delete(entry);
            }
        }
    }

    /** The id a job's container has with the runtime. */
    public static String containerId(String jobId) {
        return "grove-" + (jobId.matches("[A-Za-z0-9._-]{1,200}") ? jobId
                : Integer.toHexString(jobId.hashCode()) + "-" + jobId.replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    public void close() {
        if (workers != null) {
            workers.shutdownNow();
        }
    }
}
