package io.grove.agent;

import io.grove.agent.broker.BrokerEvent;
import io.grove.protocol.FinishedJob;

/** Observes the agent from outside (metrics, logs, tests). Called on the agent's thread. */
public interface AgentListener {

    /** A job's process started. */
    default void jobStarted(String jobId, long pid, long waitedMs) {
    }

    /** A job ended; its result goes out with the next heartbeat. */
    default void jobEnded(FinishedJob result) {
    }

    /** The broker did something. */
    default void brokerEvent(BrokerEvent event) {
    }
}
