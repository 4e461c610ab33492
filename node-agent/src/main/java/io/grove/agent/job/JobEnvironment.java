package io.grove.agent.job;

import io.grove.agent.gpu.Gpu;
import io.grove.core.operation.SpecBounds;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The whole environment of a job: a fixed base ({@code PATH}, {@code HOME} and {@code TMPDIR} in
 * its sandbox, {@code LANG}, and {@code USER}/{@code LOGNAME} when it runs as a user of its own),
 * then its spec's {@code env}, then the {@code GROVE_*} variables (among them
 * {@code GROVE_CHECKPOINT_FILE}), which the spec cannot replace.
 * Nothing of the agent's own environment is passed on.
 */
public final class JobEnvironment {

    /**
     * The file in a job's sandbox whose modification time is its last checkpoint
     * ({@code $GROVE_CHECKPOINT_FILE}): a job touches it after it saved its state, and a preemption
     * then costs only the work done since (docs/agent.md#checkpoints).
     */
    public static final String CHECKPOINT_FILE = ".grove-checkpoint";

    /** The PATH a job starts with unless its spec sets one. */
    public static final String BASE_PATH = "/usr/local/bin:/usr/bin:/bin";

    private JobEnvironment() {
    }

    /**
     * The environment of {@code job}.
     *
     * @throws IllegalArgumentException if a name of the spec's env is not a valid variable name or
     *     a value holds a NUL byte
     */
    public static Map<String, String> of(JobSpec job, String nodeId, Path sandbox, JobUsers.User user) {
        return of(job, nodeId, sandbox, user, List.of());
    }

    /**
     * The environment of {@code job} holding {@code gpus}: {@code CUDA_VISIBLE_DEVICES} (their
     * indices, with {@code CUDA_DEVICE_ORDER=PCI_BUS_ID}), {@code NVIDIA_VISIBLE_DEVICES} and
     * {@code GROVE_GPU_UUIDS} (their UUIDs), which the spec cannot replace.
     */
    public static Map<String, String> of(JobSpec job, String nodeId, Path sandbox, JobUsers.User user, List<Gpu> gpus) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", BASE_PATH);
        env.put("HOME", sandbox.toString());
        env.put("TMPDIR", sandbox.resolve("tmp").toString());
        env.put("LANG", "C.UTF-8");
        if (user != null) {
            env.put("USER", user.name());
            env.put("LOGNAME", user.name());
        }
        for (Map.Entry<String, String> entry : job.env().entrySet()) {
            if (!SpecBounds.ENV_NAME.matcher(entry.getKey()).matches()) {
                throw new IllegalArgumentException("env name '" + printable(entry.getKey()) + "' is not a valid variable name");
            }
            if (entry.getValue().indexOf('\0') >= 0) {
                throw new IllegalArgumentException("env " + entry.getKey() + " holds a NUL byte");
            }
            env.put(entry.getKey(), entry.getValue());
        }
        env.put("GROVE_OPERATION_ID", job.operationId());
        env.put("GROVE_JOB_ID", job.jobId());
        env.put("GROVE_JOB_INDEX", Integer.toString(job.index()));
        env.put("GROVE_TASK", job.task() == null ? "" : job.task());
        env.put("GROVE_NODE_ID", nodeId);
        env.put("GROVE_CHECKPOINT_FILE", sandbox.resolve(CHECKPOINT_FILE).toString());
        if (!gpus.isEmpty()) {
            String uuids = gpus.stream().map(Gpu::uuid).collect(Collectors.joining(","));
            env.put("CUDA_DEVICE_ORDER", "PCI_BUS_ID");
            env.put("CUDA_VISIBLE_DEVICES", gpus.stream().map(g -> Integer.toString(g.index())).collect(Collectors.joining(",")));
            env.put("NVIDIA_VISIBLE_DEVICES", uuids);
            env.put("GROVE_GPU_UUIDS", uuids);
        }
        return env;
    }

    private static String printable(String text) {
        String cut = text.length() > 64 ? text.substring(0, 64) + "…" : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
