package io.grove.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import io.grove.core.resource.Resources;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Heartbeats and their replies written with Jackson's streaming API: the bytes data binding writes
 * (a test compares them), without its reflection and garbage.
 */
final class HeartbeatWriter {

    private HeartbeatWriter() {
    }

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
            if (job.diskSpace() != null) {
                out.writeNumberField("disk_space", job.diskSpace().longValue());
            }
            if (job.defaultMemory() != null) {
                out.writeNumberField("default_memory", job.defaultMemory().longValue());
            }
            if (job.defaultDiskSpace() != null) {
                out.writeNumberField("default_disk_space", job.defaultDiskSpace().longValue());
            }
            if (job.dockerImage() != null) {
                out.writeStringField("docker_image", job.dockerImage());
            }
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
            out.writeStringField("outcome", job.outcome().name().toLowerCase(Locale.ROOT));
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
        if (heartbeat.diskSpaceFree() != null) {
            out.writeNumberField("disk_space_free", heartbeat.diskSpaceFree().longValue());
        }
        if (heartbeat.unschedulable() != null) {
            out.writeStringField("unschedulable", heartbeat.unschedulable());
        }
        if (!heartbeat.gpusOutOfService().isEmpty()) {
            writeTexts("gpus_out_of_service", heartbeat.gpusOutOfService(), out);
        }
        if (!heartbeat.jobCpu().isEmpty()) {
            out.writeArrayFieldStart("job_cpu");
            for (JobCpu cpu : heartbeat.jobCpu()) {
                out.writeStartObject();
                out.writeStringField("job_id", cpu.jobId());
                out.writeNumberField("cpu_seconds", cpu.cpuSeconds());
                out.writeNumberField("throttled_seconds", cpu.throttledSeconds());
                out.writeNumberField("throttled_share", cpu.throttledShare());
                out.writeEndObject();
            }
            out.writeEndArray();
        }
        if (!heartbeat.jobStatus().isEmpty()) {
            out.writeArrayFieldStart("job_status");
            for (JobStatus status : heartbeat.jobStatus()) {
                out.writeStartObject();
                out.writeStringField("job_id", status.jobId());
                if (status.preparing() != null) {
                    out.writeStringField("preparing", status.preparing());
                }
                if (status.imageDigest() != null) {
                    out.writeStringField("image_digest", status.imageDigest());
                }
                if (status.imagePullMs() != null) {
                    out.writeNumberField("image_pull_ms", status.imagePullMs().longValue());
                }
                if (status.checkpointAgeMs() != null) {
                    out.writeNumberField("checkpoint_age_ms", status.checkpointAgeMs().longValue());
                }
                out.writeEndObject();
            }
            out.writeEndArray();
        }
        out.writeEndObject();
    }

    private static void writeTexts(String name, List<String> texts, JsonGenerator out) throws IOException {
        out.writeArrayFieldStart(name);
        for (String text : texts) {
            out.writeString(text);
        }
        out.writeEndArray();
    }

    private static void writeRunning(String name, List<RunningJob> jobs, JsonGenerator out) throws IOException {
        out.writeArrayFieldStart(name);
        for (RunningJob job : jobs) {
            out.writeStartObject();
            out.writeStringField("job_id", job.jobId());
            out.writeStringField("operation_id", job.operationId());
            writeResources("usage", job.usage(), out);
            if (!job.gpus().isEmpty()) {
                writeTexts("gpus", job.gpus(), out);
            }
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
