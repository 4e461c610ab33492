package io.grove.agent.gpu;

import io.grove.agent.job.SafeDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's GPUs and who holds them: a job that ordered k GPUs gets k specific devices that no
 * other running job has, and only devices in service. A GPU is taken out of service when its check
 * fails or {@code nvidia-smi} reports it failed; it stays out, across restarts, until an admin puts
 * it back by removing its file from {@code WORK/gpus-out-of-service/} (named by the GPU's index,
 * holding why). Owned by the agent's thread.
 */
public final class NodeGpus {

    private static final Logger LOG = LoggerFactory.getLogger(NodeGpus.class);
    public static final String OUT_OF_SERVICE_DIR = "gpus-out-of-service";

    private final List<Gpu> gpus;
    private final Path outOfServiceDir;
    private final Map<String, List<Gpu>> held = new HashMap<>();
    private Map<Integer, String> outOfService = new TreeMap<>();

    /**
     * @param gpus the node's GPUs
     * @param workDir where the out-of-service GPUs are kept ({@code null}: in memory only)
     */
    public NodeGpus(List<Gpu> gpus, Path workDir) throws IOException {
        this.gpus = List.copyOf(gpus);
        this.outOfServiceDir = workDir == null ? null : workDir.resolve(OUT_OF_SERVICE_DIR);
        if (outOfServiceDir != null && !gpus.isEmpty()) {
            SafeDirs.ensure(outOfServiceDir, "rwx------");
        }
        reread();
    }

    /** No GPUs. */
    public static NodeGpus none() {
        try {
            return new NodeGpus(List.of(), null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public List<Gpu> all() {
        return gpus;
    }

    /** How many GPUs the node offers: those in service. */
    public int inService() {
        return (int) gpus.stream().filter(g -> !outOfService.containsKey(g.index())).count();
    }

    /** GPUs out of service, each with why: {@code gpu 1 (GPU-...): check failed: ...}. */
    public List<String> outOfService() {
        List<String> out = new ArrayList<>();
        for (Gpu gpu : gpus) {
            String why = outOfService.get(gpu.index());
            if (why != null) {
                out.add(gpu + ": " + why);
            }
        }
        return out;
    }

    /**
     * Gives a job {@code count} devices in service that no running job holds, lowest index first.
     *
     * @throws IOException when fewer are free (the scheduler placed more than the node offered)
     */
    public List<Gpu> assign(String jobId, int count) throws IOException {
        if (count <= 0) {
            return List.of();
        }
        List<Gpu> free = new ArrayList<>();
        for (Gpu gpu : gpus) {
            if (!outOfService.containsKey(gpu.index()) && held.values().stream().noneMatch(h -> h.contains(gpu))) {
                free.add(gpu);
            }
        }
        if (free.size() < count) {
            throw new IOException("the job orders " + count + " GPU(s) but " + free.size() + " of the node's "
                    + gpus.size() + " are free and in service" + (outOfService.isEmpty() ? "" : " (out of service: "
                    + String.join("; ", outOfService()) + ")"));
        }
        List<Gpu> given = List.copyOf(free.subList(0, count));
        held.put(jobId, given);
        return given;
    }

    /** After a restart: the devices a job of the previous run held (from its record) stay its own until it is gone. */
    public void adopt(String jobId, List<Integer> indices) {
        List<Gpu> given = gpus.stream().filter(g -> indices.contains(g.index())).toList();
        if (!given.isEmpty()) {
            held.put(jobId, given);
        }
    }

    /** The devices a job holds (empty for none). */
    public List<Gpu> of(String jobId) {
        return held.getOrDefault(jobId, List.of());
    }

    /** The job's processes are gone: its devices are free. */
    public void release(String jobId) {
        held.remove(jobId);
    }

    /** Takes a GPU out of service with why; kept in the work directory for the admin to see and undo. */
    public void takeOut(Gpu gpu, String why) {
        outOfService.put(gpu.index(), why);
        LOG.warn("{} is out of service: {}; remove {} to put it back", gpu, why,
                outOfServiceDir == null ? "(nothing: not kept)" : outOfServiceDir.resolve(Integer.toString(gpu.index())));
        if (outOfServiceDir == null) {
            return;
        }
        Path file = outOfServiceDir.resolve(Integer.toString(gpu.index()));
        Path tmp = outOfServiceDir.resolve(gpu.index() + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            Files.writeString(Files.createFile(tmp, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------"))), gpu.uuid() + "\n" + why + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("cannot keep {} out of service in {}: {}", gpu, file, e.getMessage());
        }
    }

    /** Reads which GPUs are out of service (an admin may have put some back); whether anything changed. */
    public boolean reread() {
        if (outOfServiceDir == null || gpus.isEmpty()) {
            return false;
        }
        Map<Integer, String> now = new LinkedHashMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(outOfServiceDir, "[0-9]*")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (!name.matches("[0-9]{1,3}")) {
                    continue;
                }
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                now.put(Integer.valueOf(name), lines.size() > 1 ? lines.get(1) : "out of service");
            }
        } catch (IOException e) {
            return false;
        }
        boolean changed = !now.equals(outOfService);
        if (changed) {
            LOG.info("GPUs out of service now: {}", now.isEmpty() ? "none" : now.keySet());
        }
        outOfService = now;
        return changed;
    }
}
