package io.grove.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.grove.core.resource.Resources;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's {@link NodeHeartbeat}, the message of every heartbeat, read with Jackson's streaming
 * API instead of data binding, which on a busy scheduler made much of the network threads' garbage
 * and CPU. It takes the common form only: the message's fields with their own types or
 * {@code null}, each once. Any other body — an unknown or repeated field, a number as text, a value
 * its record refuses — is left to data binding ({@link #readHeartbeat} returns {@code null}), so
 * every message is accepted or refused, with the same error, exactly as before.
 */
final class HeartbeatReader {

    private HeartbeatReader() {
    }

    /** Why the fast path gives up: data binding reads the body instead. */
    private static final class NotCommon extends Exception {
        private static final NotCommon INSTANCE = new NotCommon();

        private NotCommon() {
            super(null, null, false, false);
        }
    }

    /** The heartbeat in {@code body}, or {@code null} when it is not in the common form (or not a heartbeat). */
    static NodeHeartbeat readHeartbeat(JsonFactory factory, byte[] body) {
        try (JsonParser in = factory.createParser(body)) {
            NodeHeartbeat heartbeat = heartbeat(in);
            return in.nextToken() == null ? heartbeat : null;
        } catch (NotCommon | IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static final String[] HEARTBEAT = {"type", "node_id", "resource_limits", "resource_usage",
        "running_jobs", "finished_jobs", "delta", "started_jobs", "disk_space_free", "unschedulable",
        "gpus_out_of_service", "job_cpu", "job_status"};
    private static final String[] JOB_STATUS = {"job_id", "preparing", "image_digest", "image_pull_ms", "checkpoint_age_ms"};
    private static final String[] JOB_CPU = {"job_id", "cpu_seconds", "throttled_seconds", "throttled_share"};
    private static final String[] RUNNING_JOB = {"job_id", "operation_id", "usage", "gpus"};
    private static final String[] FINISHED_JOB = {"job_id", "outcome", "exit_code", "error", "started_at_ms",
        "finished_at_ms"};
    private static final String[] RESOURCES = {"user_slots", "cpu", "gpu", "memory", "network"};

    private static NodeHeartbeat heartbeat(JsonParser in) throws IOException, NotCommon {
        expect(in.nextToken(), JsonToken.START_OBJECT);
        String nodeId = null;
        Resources limits = null;
        Resources usage = null;
        List<RunningJob> running = null;
        List<FinishedJob> finished = null;
        Boolean delta = null;
        List<RunningJob> started = null;
        Long diskFree = null;
        String unschedulable = null;
        List<String> gpusOut = null;
        List<JobCpu> cpu = null;
        List<JobStatus> status = null;
        Fields fields = new Fields(HEARTBEAT);
        for (int field = fields.next(in); field >= 0; field = fields.next(in)) {
            JsonToken value = in.nextToken();
            switch (field) {
                case 0 -> expect("heartbeat".equals(text(in, value)));
                case 1 -> nodeId = text(in, value);
                case 2 -> limits = resources(in, value);
                case 3 -> usage = resources(in, value);
                case 4 -> running = runningJobs(in, value);
                case 5 -> finished = list(in, value, HeartbeatReader::finishedJob);
                case 6 -> delta = value == JsonToken.VALUE_NULL ? null : value == JsonToken.VALUE_TRUE ? Boolean.TRUE
                        : value == JsonToken.VALUE_FALSE ? Boolean.FALSE : fail();
                case 7 -> started = runningJobs(in, value);
                case 8 -> diskFree = value == JsonToken.VALUE_NULL ? null : longValue(in, value);
                case 9 -> unschedulable = text(in, value);
                case 10 -> gpusOut = texts(in, value);
                case 11 -> cpu = list(in, value, HeartbeatReader::jobCpu);
                default -> status = list(in, value, HeartbeatReader::jobStatus);
            }
        }
        expect(fields.saw(0));
        return new NodeHeartbeat(nodeId, limits, usage, running, finished, delta, started, diskFree, unschedulable,
                gpusOut, cpu, status);
    }

    /** Reads one object of a list, from just after its start. */
    private interface Item<T> {
        T read(JsonParser in) throws IOException, NotCommon;
    }

    private static <T> List<T> list(JsonParser in, JsonToken value, Item<T> item) throws IOException, NotCommon {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(value, JsonToken.START_ARRAY);
        List<T> items = new ArrayList<>();
        for (JsonToken token = in.nextToken(); token != JsonToken.END_ARRAY; token = in.nextToken()) {
            expect(token, JsonToken.START_OBJECT);
            items.add(item.read(in));
        }
        return items;
    }

    private static List<RunningJob> runningJobs(JsonParser in, JsonToken value) throws IOException, NotCommon {
        return list(in, value, HeartbeatReader::runningJob);
    }

    private static RunningJob runningJob(JsonParser in) throws IOException, NotCommon {
        String jobId = null;
        String operationId = null;
        Resources usage = null;
        List<String> gpus = null;
        Fields fields = new Fields(RUNNING_JOB);
        for (int field = fields.next(in); field >= 0; field = fields.next(in)) {
            JsonToken token = in.nextToken();
            switch (field) {
                case 0 -> jobId = text(in, token);
                case 1 -> operationId = text(in, token);
                case 2 -> usage = resources(in, token);
                default -> gpus = texts(in, token);
            }
        }
        return new RunningJob(jobId, operationId, usage, gpus);
    }

    private static JobCpu jobCpu(JsonParser in) throws IOException, NotCommon {
        String jobId = null;
        double[] values = {0, -1, -1};
        Fields fields = new Fields(JOB_CPU);
        for (int field = fields.next(in); field >= 0; field = fields.next(in)) {
            JsonToken token = in.nextToken();
            if (field == 0) {
                jobId = text(in, token);
            } else {
                expect(token == JsonToken.VALUE_NUMBER_FLOAT || token == JsonToken.VALUE_NUMBER_INT);
                values[field - 1] = in.getDoubleValue();
            }
        }
        return new JobCpu(jobId, values[0], values[1], values[2]);
    }

    private static JobStatus jobStatus(JsonParser in) throws IOException, NotCommon {
        String jobId = null;
        String preparing = null;
        String digest = null;
        Long pullMs = null;
        Long checkpointAgeMs = null;
        Fields fields = new Fields(JOB_STATUS);
        for (int field = fields.next(in); field >= 0; field = fields.next(in)) {
            JsonToken token = in.nextToken();
            switch (field) {
                case 0 -> jobId = text(in, token);
                case 1 -> preparing = text(in, token);
                case 2 -> digest = text(in, token);
                case 3 -> pullMs = token == JsonToken.VALUE_NULL ? null : longValue(in, token);
                default -> checkpointAgeMs = token == JsonToken.VALUE_NULL ? null : longValue(in, token);
            }
        }
        return new JobStatus(jobId, preparing, digest, pullMs, checkpointAgeMs);
    }

    private static FinishedJob finishedJob(JsonParser in) throws IOException, NotCommon {
        String jobId = null;
        FinishedJob.Outcome outcome = null;
        Integer exitCode = null;
        String error = null;
        long startedAt = 0;
        long finishedAt = 0;
        Fields fields = new Fields(FINISHED_JOB);
        for (int field = fields.next(in); field >= 0; field = fields.next(in)) {
            JsonToken token = in.nextToken();
            switch (field) {
                case 0 -> jobId = text(in, token);
                case 1 -> outcome = outcome(text(in, token));
                case 2 -> exitCode = token == JsonToken.VALUE_NULL ? null : intValue(in, token);
                case 3 -> error = text(in, token);
                case 4 -> startedAt = longValue(in, token);
                default -> finishedAt = longValue(in, token);
            }
        }
        return new FinishedJob(jobId, outcome, exitCode, error, startedAt, finishedAt);
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
        double[] components = new double[RESOURCES.length];
        Fields fields = new Fields(RESOURCES);
        for (int field = fields.next(in); field >= 0; field = fields.next(in)) {
            JsonToken token = in.nextToken();
            expect(token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT);
            components[field] = in.getDoubleValue();
        }
        return Resources.of(components);
    }

    /** An object's fields, known by their place in a list; an unknown or repeated one is not common. */
    private static final class Fields {
        private final String[] names;
        private int seen;

        Fields(String[] names) {
            this.names = names;
        }

        /** The next field's place, or -1 at the end of the object. */
        int next(JsonParser in) throws IOException, NotCommon {
            String name = in.nextFieldName();
            if (name == null) {
                return -1;
            }
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(name)) {
                    expect((seen & (1 << i)) == 0);
                    seen |= 1 << i;
                    return i;
                }
            }
            throw NotCommon.INSTANCE;
        }

        boolean saw(int field) {
            return (seen & (1 << field)) != 0;
        }
    }

    private static String text(JsonParser in, JsonToken value) throws IOException, NotCommon {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(value, JsonToken.VALUE_STRING);
        return in.getText();
    }

    /** A list of strings, or {@code null}. */
    private static List<String> texts(JsonParser in, JsonToken value) throws IOException, NotCommon {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(value, JsonToken.START_ARRAY);
        List<String> texts = new ArrayList<>();
        for (JsonToken token = in.nextToken(); token != JsonToken.END_ARRAY; token = in.nextToken()) {
            expect(token, JsonToken.VALUE_STRING);
            texts.add(in.getText());
        }
        return texts;
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

    private static void expect(boolean common) throws NotCommon {
        if (!common) {
            throw NotCommon.INSTANCE;
        }
    }

    private static Boolean fail() throws NotCommon {
        throw NotCommon.INSTANCE;
    }
}
