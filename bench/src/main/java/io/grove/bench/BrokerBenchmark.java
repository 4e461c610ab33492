package io.grove.bench;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerEvent;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.broker.ResourceBroker;
import io.grove.agent.broker.TaskRequest;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Broker decisions in a steady state: the built-in configuration (eight queues), {@code waiting}
 * tasks queued over its task types, every running task finished in turn; each finish frees room
 * and the broker chooses the next task (one allocation per operation), then a new task is
 * submitted to keep the queues full. One operation = one finish, one allocation, one submit.
 *
 * <pre>java -jar bench/target/benchmarks.jar BrokerBenchmark</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BrokerBenchmark {

    @Param({"100", "10000"})
    int waiting;

    private ResourceBroker broker;
    private final ArrayDeque<Long> running = new ArrayDeque<>();
    private final Random random = new Random(1);
    private String[] types;
    private long now;
    private long nextId = 1;

    @Setup
    public void setUp() {
        BrokerConfig config = BrokerConfig.builtIn();
        types = config.taskTypes().stream().map(t -> t.name()).toArray(String[]::new);
        broker = new ResourceBroker(config, 0);
        for (int i = 0; i < waiting; i++) {
            record(broker.submit(now, "c", task()));
        }
    }

    private TaskRequest task() {
        return new TaskRequest(nextId++, "t", new BrokerResources(1000, 64L << 20), types[random.nextInt(types.length)],
                random.nextInt(3), null);
    }

    private void record(List<BrokerEvent> events) {
        for (BrokerEvent event : events) {
            if (event instanceof BrokerEvent.Allocated allocated) {
                running.addLast(allocated.taskId());
            }
        }
    }

    @Benchmark
    public int finishAllocateSubmit() {
        now += 10;
        record(broker.finish(now, "c", running.pollFirst()));
        record(broker.submit(now, "c", task()));
        return running.size();
    }
}
