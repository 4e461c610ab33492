package io.grove.agent.broker;

import io.grove.agent.broker.BrokerEvent.Allocated;
import io.grove.agent.broker.BrokerEvent.Finished;
import io.grove.agent.broker.BrokerEvent.TaskError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The node-local Resource Broker (docs/broker.md): tasks of typed clients wait in weighted queues with
 * limits; whenever something changes, the queue with the least {@code max(C_R, C_P) / Weight} gets
 * its first task started if its limits allow, again and again until nothing more fits.
 *
 * <p>Pure and single-threaded: every operation takes the time ({@code now}, milliseconds on any
 * monotonic clock) and returns the events for the clients. Besides the seed's limits, the broker
 * never lets its running tasks hold more than the node capacity it is given
 * ({@link #setNodeCapacity}), which is how the agent keeps broker tasks and scheduler jobs from
 * booking the same resources.
 */
public final class ResourceBroker {

    private static final Comparator<TaskQueue> NEXT_QUEUE = Comparator.comparingDouble(TaskQueue::usage)
            .thenComparing(Comparator.comparingLong((TaskQueue q) -> q.weight).reversed())
            .thenComparing(q -> q.name);

    private BrokerConfig config;
    private Map<String, TaskTypeConfig> types;
    private final Map<String, DurationStats> stats = new HashMap<>();
    private final Map<String, TaskQueue> queues = new LinkedHashMap<>();
    private final Map<TaskKey, BrokerTask> tasks = new LinkedHashMap<>();
    private final Map<String, Counters> queueCounters = new TreeMap<>();
    private final Map<String, Counters> typeCounters = new TreeMap<>();
    private final Counters totalCounters = new Counters();
    private BrokerResources used = BrokerResources.ZERO;
    private BrokerResources nodeCapacity = BrokerResources.UNLIMITED;
    private int inFly;
    private long missingTaskTypes;
    private long nextTaskId = 1;
    private long sequence;
    private long now;

    /**
     * A broker with a valid configuration.
     *
     * @throws IllegalArgumentException listing the configuration's problems
     */
    public ResourceBroker(BrokerConfig config, long now) {
        this.now = now;
        List<String> problems = config.problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid broker configuration: " + String.join("; ", problems));
        }
        install(config);
    }

    /** Submits a task ({@code TEvSubmitTask}); {@code ALREADY_EXISTS} if the client uses the id. */
    public List<BrokerEvent> submit(long time, String client, TaskRequest request) {
        advance(time);
        List<BrokerEvent> events = new ArrayList<>();
        long id = request.taskId();
        if (id == 0) {
            do {
                id = nextTaskId++;
            } while (tasks.containsKey(new TaskKey(client, id)));
        } else if (tasks.containsKey(new TaskKey(client, id))) {
            events.add(new TaskError(client, id, BrokerErrorCode.ALREADY_EXISTS,
                    "task " + id + " of client " + client + " is already submitted", request.cookie()));
            return events;
        }
        if (!types.containsKey(request.type())) {
            missingTaskTypes++;
        }
        TaskKey key = new TaskKey(client, id);
        BrokerTask task = new BrokerTask(key, request, now, sequence++);
        tasks.put(key, task);
        assign(task);
        schedule(events);
        return events;
    }

    /**
     * Changes a task's resources, type and priority ({@code TEvUpdateTask}); a running task with
     * {@code resubmit} goes back to its queue and will be allocated again.
     */
    public List<BrokerEvent> update(long time, String client, long taskId, BrokerResources resources, String type,
            long priority, boolean resubmit) {
        advance(time);
        List<BrokerEvent> events = new ArrayList<>();
        BrokerTask task = find(client, taskId, "update", null, events);
        if (task == null) {
            return events;
        }
        erase(task, false);
        task.resources = resources == null ? BrokerResources.ZERO : resources;
        task.type = type == null || type.isEmpty() ? BrokerConfig.UNKNOWN_TYPE : type;
        task.priority = priority;
        if (resubmit && task.inFly) {
            task.inFly = false;
        }
        assign(task);
        schedule(events);
        return events;
    }

    /** Replaces a task's cookie ({@code TEvUpdateTaskCookie}). */
    public List<BrokerEvent> updateCookie(long time, String client, long taskId, String cookie) {
        advance(time);
        List<BrokerEvent> events = new ArrayList<>();
        BrokerTask task = find(client, taskId, "update the cookie of", cookie, events);
        if (task != null) {
            task.cookie = cookie;
        }
        return events;
    }

    /** Removes a queued task ({@code TEvRemoveTask}); {@code TASK_IN_FLY} if it runs. */
    public List<BrokerEvent> remove(long time, String client, long taskId) {
        advance(time);
        List<BrokerEvent> events = new ArrayList<>();
        BrokerTask task = find(client, taskId, "remove", null, events);
        if (task == null) {
            return events;
        }
        if (task.inFly) {
            events.add(new TaskError(client, taskId, BrokerErrorCode.TASK_IN_FLY,
                    "cannot remove task " + taskId + ": it is running; finish it instead", task.cookie));
            return events;
        }
        erase(task, false);
        tasks.remove(task.key);
        schedule(events);
        return events;
    }

    /** Ends a running task and frees its resources ({@code TEvFinishTask}); {@code TASK_IN_QUEUE} if queued. */
    public List<BrokerEvent> finish(long time, String client, long taskId) {
        advance(time);
        List<BrokerEvent> events = new ArrayList<>();
        BrokerTask task = find(client, taskId, "finish", null, events);
        if (task == null) {
            return events;
        }
        if (!task.inFly) {
            events.add(new TaskError(client, taskId, BrokerErrorCode.TASK_IN_QUEUE,
                    "cannot finish task " + taskId + ": it is still queued; remove it instead", task.cookie));
            return events;
        }
        end(task, false, events);
        schedule(events);
        return events;
    }

    /** Drops every task of a client ({@code TEvNotifyActorDied}): running ones end, queued ones go. */
    public List<BrokerEvent> clientDied(long time, String client) {
        advance(time);
        List<BrokerEvent> events = new ArrayList<>();
        for (BrokerTask task : new ArrayList<>(tasks.values())) {
            if (!task.key.client().equals(client)) {
                continue;
            }
            if (task.inFly) {
                end(task, true, events);
            } else {
                erase(task, false);
                tasks.remove(task.key);
            }
        }
        schedule(events);
        return events;
    }

    /**
     * Applies a new configuration ({@code TEvConfigure}): every task moves to the queue its type
     * now names. A configuration with problems is refused and nothing changes.
     */
    public ConfigureResult configure(long time, BrokerConfig newConfig) {
        advance(time);
        List<String> problems = newConfig.problems();
        if (!problems.isEmpty()) {
            return new ConfigureResult(false, String.join("; ", problems), List.of());
        }
        List<BrokerTask> all = new ArrayList<>(tasks.values());
        all.forEach(task -> erase(task, false));
        install(newConfig);
        all.sort(Comparator.comparingLong(t -> t.sequence));
        all.forEach(this::assign);
        List<BrokerEvent> events = new ArrayList<>();
        schedule(events);
        return new ConfigureResult(true, "", events);
    }

    /**
     * Sets the most the running tasks may hold together on this node; tasks that do not fit wait,
     * even the oversize ones the seed lets exceed the limits.
     */
    public List<BrokerEvent> setNodeCapacity(long time, BrokerResources capacity) {
        advance(time);
        nodeCapacity = capacity;
        List<BrokerEvent> events = new ArrayList<>();
        schedule(events);
        return events;
    }

    /** Brings the real consumption up to {@code time}. */
    public void tick(long time) {
        advance(time);
    }

    /** What the running tasks hold. */
    public BrokerResources used() {
        return used;
    }

    public BrokerConfig config() {
        return config;
    }

    /** Whether a task is known, and running. */
    public boolean isRunning(String client, long taskId) {
        BrokerTask task = tasks.get(new TaskKey(client, taskId));
        return task != null && task.inFly;
    }

    /** The monitoring view: configuration, sensors, every queue and task. */
    public BrokerStatus status(long time) {
        advance(time);
        List<BrokerStatus.QueueState> queueStates = new ArrayList<>();
        for (TaskQueue queue : queues.values()) {
            queueStates.add(new BrokerStatus.QueueState(queue.name, queue.weight, queue.limit, queue.used, queue.real,
                    queue.planned, queue.active(), queue.waiting.size(), queue.inFly));
        }
        List<BrokerStatus.TypeState> typeStates = new ArrayList<>();
        for (TaskTypeConfig type : config.taskTypes()) {
            DurationStats stat = stats.get(type.name());
            typeStates.add(new BrokerStatus.TypeState(type.name(), type.queue(), type.defaultDurationMs(),
                    stat.average(), stat.measured()));
        }
        Map<String, Counters.CounterValues> byQueue = new TreeMap<>();
        queueCounters.forEach((name, c) -> byQueue.put(name, c.values()));
        byQueue.put("total", totalCounters.values());
        Map<String, Counters.CounterValues> byType = new TreeMap<>();
        typeCounters.forEach((name, c) -> byType.put(name, c.values()));
        List<TaskView> views = tasks.values().stream().map(BrokerTask::view).toList();
        return new BrokerStatus(now, config, used, nodeCapacity, queueStates, typeStates, byQueue, byType,
                missingTaskTypes, views);
    }

    private void install(BrokerConfig newConfig) {
        config = newConfig;
        types = newConfig.typesByName();
        queues.clear();
        for (QueueConfig queueConfig : newConfig.queues()) {
            Counters counters = queueCounters.computeIfAbsent(queueConfig.name(), n -> new Counters());
            queues.put(queueConfig.name(), new TaskQueue(queueConfig, counters, now));
        }
        Map<String, DurationStats> kept = new HashMap<>(stats);
        stats.clear();
        for (TaskTypeConfig type : newConfig.taskTypes()) {
            DurationStats old = kept.get(type.name());
            stats.put(type.name(), old != null && old.defaultMs() == type.defaultDurationMs() ? old
                    : new DurationStats(type.defaultDurationMs()));
            typeCounters.computeIfAbsent(type.name(), n -> new Counters());
        }
    }

    private void advance(long time) {
        now = Math.max(now, time);
        for (TaskQueue queue : queues.values()) {
            queue.updateReal(now, config.resourceLimit());
        }
    }

    private String typeOf(BrokerTask task) {
        return types.containsKey(task.type) ? task.type : BrokerConfig.UNKNOWN_TYPE;
    }

    private BrokerTask find(String client, long taskId, String what, String cookie, List<BrokerEvent> events) {
        BrokerTask task = tasks.get(new TaskKey(client, taskId));
        if (task == null) {
            events.add(new TaskError(client, taskId, BrokerErrorCode.UNKNOWN_TASK,
                    "cannot " + what + " task " + taskId + ": client " + client + " has no such task", cookie));
        }
        return task;
    }

    /**
     * Puts a task into the queue of its type. A queue that becomes active again is first brought
     * level: neither its real nor its planned consumption may stay below the least of the active
     * queues', so a queue that idled cannot take everything when it wakes.
     */
    private void assign(BrokerTask task) {
        assign(task, true);
    }

    private void assign(BrokerTask task, boolean level) {
        TaskQueue queue = queues.get(types.get(typeOf(task)).queue());
        if (level && !queue.active()) {
            double leastReal = Double.POSITIVE_INFINITY;
            double leastPlanned = Double.POSITIVE_INFINITY;
            for (TaskQueue other : queues.values()) {
                if (other.active()) {
                    leastReal = Math.min(leastReal, other.real);
                    leastPlanned = Math.min(leastPlanned, other.planned);
                }
            }
            if (leastReal != Double.POSITIVE_INFINITY) {
                queue.real = Math.max(queue.real, leastReal);
                queue.planned = Math.max(queue.planned, leastPlanned);
            }
        }
        task.queue = queue;
        Counters typeCounter = typeCounters.get(typeOf(task));
        if (task.inFly) {
            queue.updateReal(now, config.resourceLimit());
            queue.startPlanned(task, now, config.resourceLimit());
            hold(task, typeCounter, 1);
        } else {
            queue.waiting.add(task);
            queue.counters.enqueued++;
            totalCounters.enqueued++;
            typeCounter.enqueued++;
        }
    }

    /** Takes a task out of its queue, releasing what it holds if it runs. */
    private void erase(BrokerTask task, boolean finished) {
        TaskQueue queue = task.queue;
        Counters typeCounter = typeCounters.get(typeOf(task));
        if (task.inFly) {
            queue.updateReal(now, config.resourceLimit());
            queue.endPlanned(task, now, config.resourceLimit());
            hold(task, typeCounter, -1);
            if (finished) {
                queue.counters.finished++;
                totalCounters.finished++;
                typeCounter.finished++;
            }
        } else {
            queue.waiting.remove(task);
            queue.counters.enqueued--;
            totalCounters.enqueued--;
            typeCounter.enqueued--;
        }
        task.queue = null;
    }

    private void hold(BrokerTask task, Counters typeCounter, int sign) {
        TaskQueue queue = task.queue;
        queue.used = sign > 0 ? queue.used.plus(task.resources) : queue.used.minus(task.resources);
        used = sign > 0 ? used.plus(task.resources) : used.minus(task.resources);
        queue.inFly += sign;
        inFly += sign;
        for (Counters c : new Counters[] {queue.counters, totalCounters, typeCounter}) {
            c.inFly += sign;
            c.hold(task.resources, sign);
        }
    }

    private void end(BrokerTask task, boolean cancelled, List<BrokerEvent> events) {
        long ran = now - task.startedAt;
        String type = typeOf(task);
        if (!cancelled) {
            stats.get(type).add(ran);
        }
        String queueName = task.queue.name;
        erase(task, true);
        tasks.remove(task.key);
        events.add(new Finished(task.key.client(), task.key.taskId(), type, queueName, ran, cancelled));
    }

    /**
     * Starts tasks while any fits: take the queue with the least consumption, start its first task
     * unless a limit stops it. A first task that does not fit the total limit (or the node) blocks
     * the resources it needs for the rest of the pass, so that smaller tasks of later queues
     * cannot starve it; one that does not fit its queue's limit only skips its queue.
     */
    private void schedule(List<BrokerEvent> events) {
        PriorityQueue<TaskQueue> candidates = new PriorityQueue<>(NEXT_QUEUE);
        for (TaskQueue queue : queues.values()) {
            if (!queue.waiting.isEmpty()) {
                candidates.add(queue);
            }
        }
        int blocked = 0;
        BrokerResources total = config.resourceLimit();
        while (!candidates.isEmpty()) {
            TaskQueue queue = candidates.poll();
            BrokerTask task = queue.waiting.first();
            if ((task.resources.mask() & blocked) != 0) {
                continue;
            }
            boolean fitsTotal = task.resources.fitsWith(used, total) || inFly == 0;
            if (!fitsTotal || !task.resources.fitsWith(used, nodeCapacity)) {
                blocked |= task.resources.mask();
                continue;
            }
            if (!task.resources.fitsWith(queue.used, queue.limit) && queue.inFly > 0) {
                continue;
            }
            erase(task, false);
            task.inFly = true;
            task.startedAt = now;
            task.plannedEnd = now + stats.get(typeOf(task)).average();
            assign(task, false);
            events.add(new Allocated(task.key.client(), task.key.taskId(), task.name, typeOf(task), queue.name,
                    task.cookie, now - task.submittedAt));
            if (!queue.waiting.isEmpty()) {
                candidates.add(queue);
            }
        }
    }

    /** The answer to {@link #configure}: success, or the problems; and the allocations it caused. */
    public record ConfigureResult(boolean success, String message, List<BrokerEvent> events) {
    }
}
