package io.grove.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Message;
import io.grove.protocol.NodeHeartbeat;
import io.grove.protocol.ProtocolJson;
import io.grove.protocol.RunningJob;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a network thread does per heartbeat on a busy cluster: read a delta heartbeat (one job
 * started, one ended) and write a reply that starts one job — by the protocol's codec
 * ({@code ProtocolJson}: heartbeats by hand) and by data binding alone, as before. With
 * {@code -prof gc} it gives the bytes allocated per heartbeat.
 *
 * <pre>java -jar bench/target/benchmarks.jar HeartbeatCodecBenchmark -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class HeartbeatCodecBenchmark {

    private static final ObjectMapper MAPPER = ProtocolJson.mapper();

    private final byte[] heartbeat = ProtocolJson.write(NodeHeartbeat.delta("node-01234", new Resources(32, 32, 0, 128e9, 0),
            new Resources(30, 30, 0, 120e9, 0), List.of(new RunningJob("op-17-123457", "op-17", Resources.cpu(1))),
            List.of(new FinishedJob("op-17-98765", FinishedJob.Outcome.COMPLETED, 0, null, 1_790_000_000_000L,
                    1_790_000_032_000L))));
    private final HeartbeatReply reply = new HeartbeatReply(List.of(new HeartbeatReply.JobToStart("op-17-123458",
            "op-17", "main", 123_458, "sleep 30", Map.of(), Resources.cpu(1))), List.of(), List.of(), 1000);
    private final ByteArrayOutputStream frame = new ByteArrayOutputStream(4096);

    @Benchmark
    public Object readHeartbeat() throws Exception {
        return ProtocolJson.read(heartbeat);
    }

    @Benchmark
    public Object readHeartbeatByDataBinding() throws Exception {
        return MAPPER.readValue(heartbeat, Message.class);
    }

    /** Into a reused buffer, as the frame encoder writes into a pooled one. */
    @Benchmark
    public int writeReply() {
        frame.reset();
        ProtocolJson.writeValue(reply, frame);
        return frame.size();
    }

    /** As the frame encoder wrote before: the bytes, then copied into the frame. */
    @Benchmark
    public int writeReplyByDataBinding() throws Exception {
        frame.reset();
        frame.write(MAPPER.writeValueAsBytes(reply));
        return frame.size();
    }
}
