package io.grove.agent;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.broker.TaskRequest;
import io.grove.agent.job.WorkDir;
import java.io.IOException;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's own node-local work, run as tasks of the node's Resource Broker so that it takes its
 * turn with everything else on the node: preparing a job's sandbox, archiving a job's logs,
 * removing its directory, expiring old logs, pulling an image. Each task carries what to do in its cookie
 * ({@code prepare:JOB}, {@code archive:JOB}, {@code cleanup:JOB}, {@code expire}, {@code pull:DIGEST}).
 * A pull runs on the image threads and holds its task until it is done.
 */
final class NodeTasks {

    private static final Logger LOG = LoggerFactory.getLogger(NodeTasks.class);

    /** What one task holds: no CPU to speak of, some memory. */
    static final BrokerResources NODE_TASK = new BrokerResources(0, 16L << 20);
    /** What a pull holds: no CPU to speak of, 32 MiB (so the built-in images queue runs two at once). */
    static final BrokerResources PULL_TASK = new BrokerResources(0, 32L << 20);

    private final WorkDir workDir;
    private final InstantSource clock;
    private final long logRetentionMs;
    private final Consumer<TaskRequest> submit;
    private final Consumer<String> prepare;
    private final Consumer<String> cleanedUp;
    private Consumer<String> pull = digest -> LOG.warn("no image pulls on this node: {}", digest);
    private final Map<Long, String> cookies = new HashMap<>();
    private long next = 1;

    /**
     * @param submit hands a task to the broker (under the agent's own client name)
     * @param prepare prepares and launches a job whose sandbox task was allocated
     * @param cleanedUp told when a job's directory and sandbox are removed
     */
    NodeTasks(WorkDir workDir, InstantSource clock, long logRetentionMs, Consumer<TaskRequest> submit,
            Consumer<String> prepare, Consumer<String> cleanedUp) {
        this.cleanedUp = cleanedUp;
        this.workDir = workDir;
        this.clock = clock;
        this.logRetentionMs = logRetentionMs;
        this.submit = submit;
        this.prepare = prepare;
    }

    /** Where the pull of an image goes once its task is allocated. */
    void pullsTo(Consumer<String> pulls) {
        this.pull = pulls;
    }

    /** Queues a task of {@code type} in the broker; returns its id. */
    long submit(String type, String cookie) {
        return submit(type, cookie, NODE_TASK);
    }

    /** Queues the pull of an image by digest; returns its task's id (finished when the pull is done). */
    long submitPull(String digest) {
        return submit(BrokerConfig.IMAGE_PULL, "pull:" + digest, PULL_TASK);
    }

    private long submit(String type, String cookie, BrokerResources resources) {
        long id = next++;
        cookies.put(id, cookie);
        submit.accept(new TaskRequest(id, cookie, resources, type, 0, cookie));
        return id;
    }

    /** Forgets a task taken back from the broker before it ran. */
    void forget(long taskId) {
        cookies.remove(taskId);
    }

    /** Runs a task the broker allocated; whether it is done (a pull is done later, on its own). */
    boolean run(long taskId, String cookie) {
        cookies.remove(taskId);
        int colon = cookie.indexOf(':');
        String action = colon < 0 ? cookie : cookie.substring(0, colon);
        String jobId = colon < 0 ? "" : cookie.substring(colon + 1);
        try {
            switch (action) {
                case "prepare" -> prepare.accept(jobId);
                case "archive" -> {
                    try {
                        workDir.archiveLogs(jobId);
                    } finally {
                        // the sandbox goes whether or not its logs could be kept: a node is never left full
                        submit(BrokerConfig.SANDBOX_CLEANUP, "cleanup:" + jobId);
                    }
                }
                case "cleanup" -> {
                    workDir.removeJob(jobId);
                    cleanedUp.accept(jobId);
                }
                case "expire" -> workDir.expireLogs(clock.millis() - logRetentionMs);
                case "pull" -> {
                    pull.accept(jobId);
                    return false;
                }
                default -> LOG.warn("unknown node-local task '{}'", cookie);
            }
        } catch (IOException e) {
            LOG.warn("node-local task {} failed: {}", cookie, e.getMessage());
        }
        return true;
    }
}
