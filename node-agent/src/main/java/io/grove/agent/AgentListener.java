package io.grove.agent;

import io.grove.agent.broker.BrokerEvent;
import io.grove.protocol.FinishedJob;

/** Observes the agent from outside (metrics, logs, tests). Called on the agent's thread. */
public interface AgentListener {

    /** A job's process started. */
    default void jobStarted(String jobId, long pid, long waitedMs) {
    }

    /** An image job's image is ready: pulled and unpacked in {@code pullMs}, or 0 when it was cached. */
    default void imageReady(String jobId, long pullMs) {
    }

    /** A job ended; its result goes out with the next heartbeat. */
    default void jobEnded(FinishedJob result) {
    }

    /** A running job's GPUs as last sampled: their mean utilization in percent and their memory in use. */
    default void jobGpus(String jobId, double utilization, long memoryUsedBytes) {
    }

    /** A job that held GPUs ended: GPU-seconds it held them for. */
    default void gpuSeconds(String jobId, double seconds) {
    }

    /** The broker did something. */
    default void brokerEvent(BrokerEvent event) {
    }
}
