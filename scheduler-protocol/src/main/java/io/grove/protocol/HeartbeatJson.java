package io.grove.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.grove.core.resource.Resources;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The messages of every heartbeat — the node's {@link NodeHeartbeat} and the scheduler's
 * {@link HeartbeatReply} — read and written with Jackson's streaming API instead of data binding,
 * which on a busy scheduler made most of the network threads' garbage and CPU.
 *
 * <p>Writing gives the same bytes data binding gives (a test compares them). Reading takes the
 * common form only: the fields of the message with their own types or {@code null}, each once. Any
 * other body — an unknown or repeated field, a number as text, a value its record refuses — is
 * left to data binding ({@link #readHeartbeat} returns {@code null}), so every message is accepted
 * or refused, with the same error, exactly as before.
 */
final class HeartbeatJson {

    private HeartbeatJson() {
    }

    /** Why the fast path gives up: data binding reads the body instead. */
    private static final class NotCommon extends Exception {
        private static final NotCommon INSTANCE = new NotCommon();

        private NotCommon() {
            super(null, null, false, false);
        }
    }

    // ---- reading a heartbeat

    /** The heartbeat in {@code body}, or {@code null} when it is not in the common form (or not a heartbeat). */
    static NodeHeartbeat readHeartbeat(JsonFactory factory, byte[] body) {
        try (JsonParser in = factory.createParser(body)) {
            NodeHeartbeat heartbeat = heartbeat(in);
            return in.nextToken() == null ? heartbeat : null;
        } catch (NotCommon | IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static NodeHeartbeat heartbeat(JsonParser in) throws IOException, NotCommon {
        expect(in.nextToken(), JsonToken.START_OBJECT);
        boolean typed = false;
        String nodeId = null;
        Resources limits = null;
        Resources usage = null;
        List<RunningJob> running = null;
        List<FinishedJob> finished = null;
        Boolean delta = null;
        List<RunningJob> started = null;
        int seen = 0;
        for (String field = in.nextFieldName(); field != null; field = in.nextFieldName()) {
            JsonToken value = in.nextToken();
            switch (field) {
                case "type" -> {
                    seen = once(seen, 0);
                    typed = value == JsonToken.VALUE_STRING && "heartbeat".equals(in.getText());
                    if (!typed) {
                        throw NotCommon.INSTANCE;
                    }
                }
                case "node_id" -> {
                    seen = once(seen, 1);
                    nodeId = text(in, value);
                }
                case "resource_limits" -> {
                    seen = once(seen, 2);
                    limits = resources(in, value);
                }
                case "resource_usage" -> {
                    seen = once(seen, 3);
                    usage = resources(in, value);
                }
                case "running_jobs" -> {
                    seen = once(seen, 4);
                    running = runningJobs(in, value);
                }
                case "finished_jobs" -> {
                    seen = once(seen, 5);
                    finished = finishedJobs(in, value);
                }
                case "delta" -> {
                    seen = once(seen, 6);
                    delta = value == JsonToken.VALUE_NULL ? null : value == JsonToken.VALUE_TRUE ? Boolean.TRUE
                            : value == JsonToken.VALUE_FALSE ? Boolean.FALSE : fail();
                }
                case "started_jobs" -> {
                    seen = once(seen, 7);
                    started = runningJobs(in, value);
                }
                default -> throw NotCommon.INSTANCE;
            }
        }
        if (!typed) {
            throw NotCommon.INSTANCE;
        }
        return new NodeHeartbeat(nodeId, limits, usage, running, finished, delta, started);
    }

    private static List<RunningJob> runningJobs(JsonParser in, JsonToken value) throws IOException, NotCommon {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(value, JsonToken.START_ARRAY);
        List<RunningJob> jobs = new ArrayList<>();
        for (JsonToken item = in.nextToken(); item != JsonToken.END_ARRAY; item = in.nextToken()) {
            expect(item, JsonToken.START_OBJECT);
            String jobId = null;
            String operationId = null;
            Resources usage = null;
            int seen = 0;
            for (String field = in.nextFieldName(); field != null; field = in.nextFieldName()) {
                JsonToken token = in.nextToken();
                switch (field) {
                    case "job_id" -> {
                        seen = once(seen, 0);
                        jobId = text(in, token);
                    }
                    case "operation_id" -> {
                        seen = once(seen, 1);
                        operationId = text(in, token);
                    }
                    case "usage" -> {
                        seen = once(seen, 2);
                        usage = resources(in, token);
                    }
                    default -> throw NotCommon.INSTANCE;
                }
            }
            jobs.add(new RunningJob(jobId, operationId, usage));
        }
        return jobs;
    }

    private static List<FinishedJob> finishedJobs(JsonParser in, JsonToken value) throws IOException, NotCommon {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(value, JsonToken.START_ARRAY);
        List<FinishedJob> jobs = new ArrayList<>();
        for (JsonToken item = in.nextToken(); item != JsonToken.END_ARRAY; item = in.nextToken()) {
            expect(item, JsonToken.START_OBJECT);
            String jobId = null;
            FinishedJob.Outcome outcome = null;
            Integer exitCode = null;
            String error = null;
            long startedAt = 0;
            long finishedAt = 0;
            int seen = 0;
            for (String field = in.nextFieldName(); field != null; field = in.nextFieldName()) {
                JsonToken token = in.nextToken();
                switch (field) {
                    case "job_id" -> {
                        seen = once(seen, 0);
                        jobId = text(in, token);
                    }
                    case "outcome" -> {
                        seen = once(seen, 1);
                        outcome = outcome(text(in, token));
                    }
                    case "exit_code" -> {
                        seen = once(seen, 2);
                        exitCode = token == JsonToken.VALUE_NULL ? null : intValue(in, token);
                    }
                    case "error" -> {
                        seen = once(seen, 3);
                        error = text(in, token);
                    }
                    case "started_at_ms" -> {
                        seen = once(seen, 4);
                        startedAt = longValue(in, token);
                    }
                    case "finished_at_ms" -> {
                        seen = once(seen, 5);
                        finishedAt = longValue(in, token);
                    }
                    default -> throw NotCommon.INSTANCE;
                }
            }
            jobs.add(new FinishedJob(jobId, outcome, exitCode, error, startedAt, finishedAt));
        }
        return jobs;
    }

    private static FinishedJob.Outcome outcome(String name) throws NotCommon {
        if (name == null) {
            throw NotCommon.INSTANCE;
        }
        return switch (name) {
            case "completed" -> FinishedJob.Outcome.COMPLETED;
            case "failed" -> FinishedJob.Outcome.FAILED;
            case "aborted" -> FinishedJob.Outcome.ABORTED;
            default -> throw NotCommon.INSTANCE;
        };
    }

    private static Resources resources(JsonParser in, JsonToken value) throws IOException, NotCommon {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(value, JsonToken.START_OBJECT);
        double userSlots = 0;
        double cpu = 0;
        double gpu = 0;
        double memory = 0;
        double network = 0;
        int seen = 0;
        for (String field = in.nextFieldName(); field != null; field = in.nextFieldName()) {
            JsonToken token = in.nextToken();
            if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
                throw NotCommon.INSTANCE;
            }
            double number = in.getDoubleValue();
            switch (field) {
                case "user_slots" -> {
                    seen = once(seen, 0);
                    userSlots = number;
                }
                case "cpu" -> {
                    seen = once(seen, 1);
                    cpu = number;
                }
                case "gpu" -> {
                    seen = once(seen, 2);
                    gpu = number;
                }
                case "memory" -> {
                    seen = once(seen, 3);
                    memory = number;
                }
                case "network" -> {
                    seen = once(seen, 4);
                    network = number;
                }
                default -> throw NotCommon.INSTANCE;
            }
        }
        return new Resources(userSlots, cpu, gpu, memory, network);
    }

    private static String text(JsonParser in, JsonToken value) throws IOException, NotCommon {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(value, JsonToken.VALUE_STRING);
        return in.getText();
    }

    private static int intValue(JsonParser in, JsonToken value) throws IOException, NotCommon {
        expect(value, JsonToken.VALUE_NUMBER_INT);
        if (in.getNumberType() != JsonParser.NumberType.INT) {
            throw NotCommon.INSTANCE;
        }
        return in.getIntValue();
    }

    private static long longValue(JsonParser in, JsonToken value) throws IOException, NotCommon {
        expect(value, JsonToken.VALUE_NUMBER_INT);
        JsonParser.NumberType type = in.getNumberType();
        if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
            throw NotCommon.INSTANCE;
        }
        return in.getLongValue();
    }

    private static void expect(JsonToken token, JsonToken wanted) throws NotCommon {
        if (token != wanted) {
            throw NotCommon.INSTANCE;
        }
    }

    /** Marks field {@code bit} as seen; a field given twice is left to data binding. */
    private static int once(int seen, int bit) throws NotCommon {
        if ((seen & (1 << bit)) != 0) {
            throw NotCommon.INSTANCE;
        }
        return seen | (1 << bit);
    }

    private static Boolean fail() throws NotCommon {
        throw NotCommon.INSTANCE;
    }

    // ---- writing

    /** Writes a heartbeat or a reply (the bytes data binding writes); false for any other value. */
    static boolean write(Object message, JsonGenerator out) throws IOException {
        if (message instanceof HeartbeatReply reply) {
            writeReply(reply, out);
            return true;
        }
        if (message instanceof NodeHeartbeat heartbeat) {
            writeHeartbeat(heartbeat, out);
            return true;
        }
        return false;
    }

    private static void writeReply(HeartbeatReply reply, JsonGenerator out) throws IOException {
        out.writeStartObject();
        out.writeStringField("type", "heartbeat_reply");
        out.writeArrayFieldStart("jobs_to_start");
        for (HeartbeatReply.JobToStart job : reply.jobsToStart()) {
            out.writeStartObject();
            out.writeStringField("job_id", job.jobId());
            out.writeStringField("operation_id", job.operationId());
            out.writeStringField("task", job.task());
            out.writeNumberField("index", job.index());
            out.writeStringField("command", job.command());
            out.writeObjectFieldStart("env");
            for (Map.Entry<String, String> entry : job.env().entrySet()) {
                out.writeStringField(entry.getKey(), entry.getValue());
            }
            out.writeEndObject();
            writeResources("resources", job.resources(), out);
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeArrayFieldStart("jobs_to_abort");
        for (HeartbeatReply.JobToAbort job : reply.jobsToAbort()) {
            out.writeStartObject();
            out.writeStringField("job_id", job.jobId());
            out.writeStringField("reason", job.reason());
            out.writeStringField("message", job.message());
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeArrayFieldStart("jobs_to_interrupt");
        for (HeartbeatReply.JobToInterrupt job : reply.jobsToInterrupt()) {
            out.writeStartObject();
            out.writeStringField("job_id", job.jobId());
            out.writeStringField("reason", job.reason());
            out.writeStringField("preemptor_operation_id", job.preemptorOperationId());
            out.writeStringField("preemptor_job_id", job.preemptorJobId());
            out.writeNumberField("grace_ms", job.graceMs());
            out.writeStringField("message", job.message());
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeNumberField("next_heartbeat_ms", reply.nextHeartbeatMs());
        if (reply.resync() != null) {
            out.writeBooleanField("resync", reply.resync());
        }
        out.writeEndObject();
    }

    private static void writeHeartbeat(NodeHeartbeat heartbeat, JsonGenerator out) throws IOException {
        out.writeStartObject();
        out.writeStringField("type", "heartbeat");
        out.writeStringField("node_id", heartbeat.nodeId());
        writeResources("resource_limits", heartbeat.resourceLimits(), out);
        writeResources("resource_usage", heartbeat.resourceUsage(), out);
        writeRunning("running_jobs", heartbeat.runningJobs(), out);
        out.writeArrayFieldStart("finished_jobs");
        for (FinishedJob job : heartbeat.finishedJobs()) {
            out.writeStartObject();
            out.writeStringField("job_id", job.jobId());
            out.writeStringField("outcome", job.outcome().name().toLowerCase(java.util.Locale.ROOT));
            out.writeFieldName("exit_code");
            if (job.exitCode() == null) {
                out.writeNull();
            } else {
                out.writeNumber(job.exitCode().intValue());
            }
            out.writeStringField("error", job.error());
            out.writeNumberField("started_at_ms", job.startedAtMs());
            out.writeNumberField("finished_at_ms", job.finishedAtMs());
            out.writeEndObject();
        }
        out.writeEndArray();
        if (heartbeat.delta() != null) {
            out.writeBooleanField("delta", heartbeat.delta());
        }
        if (!heartbeat.startedJobs().isEmpty()) {
            writeRunning("started_jobs", heartbeat.startedJobs(), out);
        }
        out.writeEndObject();
    }

    private static void writeRunning(String name, List<RunningJob> jobs, JsonGenerator out) throws IOException {
        out.writeArrayFieldStart(name);
        for (RunningJob job : jobs) {
            out.writeStartObject();
            out.writeStringField("job_id", job.jobId());
            out.writeStringField("operation_id", job.operationId());
            writeResources("usage", job.usage(), out);
            out.writeEndObject();
        }
        out.writeEndArray();
    }

    private static void writeResources(String name, Resources resources, JsonGenerator out) throws IOException {
        out.writeObjectFieldStart(name);
        out.writeNumberField("user_slots", resources.userSlots());
        out.writeNumberField("cpu", resources.cpu());
        out.writeNumberField("gpu", resources.gpu());
        out.writeNumberField("memory", resources.memory());
        out.writeNumberField("network", resources.network());
        out.writeEndObject();
    }
}
