package io.grove.protocol.broker;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.grove.protocol.Checks;
import java.util.List;

/**
 * The loopback protocol of a node's Resource Broker (docs/broker.md#the-messages), in the same frames
 * as the node protocol. A connection is one client: its tasks are keyed by the connection and the
 * client's task id, and closing it drops them all ("client died"). Operations are not answered
 * when they succeed; allocations and errors are pushed when they happen.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = BrokerMessage.Hello.class, name = "hello"),
    @JsonSubTypes.Type(value = BrokerMessage.HelloResult.class, name = "hello_result"),
    @JsonSubTypes.Type(value = BrokerMessage.Submit.class, name = "submit"),
    @JsonSubTypes.Type(value = BrokerMessage.Update.class, name = "update"),
    @JsonSubTypes.Type(value = BrokerMessage.UpdateCookie.class, name = "update_cookie"),
    @JsonSubTypes.Type(value = BrokerMessage.Remove.class, name = "remove"),
    @JsonSubTypes.Type(value = BrokerMessage.Finish.class, name = "finish"),
    @JsonSubTypes.Type(value = BrokerMessage.Configure.class, name = "configure"),
    @JsonSubTypes.Type(value = BrokerMessage.Allocated.class, name = "allocated"),
    @JsonSubTypes.Type(value = BrokerMessage.TaskError.class, name = "task_error"),
    @JsonSubTypes.Type(value = BrokerMessage.ConfigureResult.class, name = "configure_result"),
    @JsonSubTypes.Type(value = BrokerMessage.BrokerError.class, name = "error")
})
public sealed interface BrokerMessage {

    /**
     * CPU (cores, three decimals) and memory (bytes). In a task, an absent resource is 0; in a
     * limit, it is unlimited.
     */
    record Amounts(Double cpu, Long memory) {
        public Amounts {
            if (cpu != null && (cpu.isNaN() || cpu < 0)) {
                throw new IllegalArgumentException("cpu must be a non-negative number, got " + cpu);
            }
            if (memory != null && memory < 0) {
                throw new IllegalArgumentException("memory must be non-negative, got " + memory);
            }
        }
    }

    /**
     * The first message of a connection: the node's broker client token (co-located services) or
     * its admin token (the only one that may {@link Configure}). Until it is accepted, nothing else is.
     */
    record Hello(String token) implements BrokerMessage {
        public Hello {
            Checks.required(token, "token");
            Checks.bounded(token, "token", 1024);
        }

        @Override
        public String toString() {
            return "Hello[token hidden]";
        }
    }

    /** The answer to an accepted {@link Hello}: {@code client} or {@code admin}. */
    record HelloResult(String role) implements BrokerMessage {
    }

    /** Submits a task; {@code task_id} 0 lets the broker choose (the cookie then identifies it). */
    record Submit(long taskId, String name, Amounts resources, String taskType, long priority, String cookie)
            implements BrokerMessage {
        public Submit {
            Checks.nonNegative(taskId, "task_id");
            Checks.nonNegative(priority, "priority");
        }
    }

    /** Changes a task's resources, type and priority; {@code resubmit} puts a running task back in its queue. */
    record Update(long taskId, Amounts resources, String taskType, long priority, boolean resubmit)
            implements BrokerMessage {
        public Update {
            Checks.nonNegative(taskId, "task_id");
            Checks.nonNegative(priority, "priority");
        }
    }

    /** Replaces a task's cookie. */
    record UpdateCookie(long taskId, String cookie) implements BrokerMessage {
    }

    /** Removes a queued task. */
    record Remove(long taskId) implements BrokerMessage {
    }

    /** Ends a running task, freeing its resources. */
    record Finish(long taskId) implements BrokerMessage {
    }

    /** Replaces the broker's configuration; answered by {@link ConfigureResult}. */
    record Configure(Amounts resourceLimit, List<Queue> queues, List<TaskType> taskTypes) implements BrokerMessage {
        public Configure {
            queues = Checks.list(queues);
            taskTypes = Checks.list(taskTypes);
        }
    }

    /** A queue of a {@link Configure}. */
    record Queue(String name, long weight, Amounts limit) {
        public Queue {
            Checks.required(name, "name");
        }
    }

    /** A task type of a {@link Configure}. */
    record TaskType(String name, String queue, long defaultDurationMs) {
        public TaskType {
            Checks.required(name, "name");
            Checks.required(queue, "queue");
            Checks.nonNegative(defaultDurationMs, "default_duration_ms");
        }
    }

    /** Resources were allocated to a task: it may run now. */
    record Allocated(long taskId, String cookie) implements BrokerMessage {
    }

    /** An operation on a task was refused: {@code already_exists}, {@code unknown_task}, {@code task_in_fly}, {@code task_in_queue}. */
    record TaskError(long taskId, String code, String message, String cookie) implements BrokerMessage {
    }

    /** The answer to {@link Configure}. */
    record ConfigureResult(boolean success, String message) implements BrokerMessage {
    }

    /**
     * A frame that could not be read ({@code frame_too_large} is fatal), in the node protocol's
     * codes; {@code unauthenticated} (no accepted {@link Hello} first, fatal) and {@code forbidden}
     * ({@link Configure} without the admin token).
     */
    record BrokerError(String code, String message, boolean fatal) implements BrokerMessage {
    }
}
