package io.grove.agent.broker;

/** A task's identity: its client and the client's id for it. */
public record TaskKey(String client, long taskId) {
}
