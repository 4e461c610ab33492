package io.grove.api;

/**
 * A chunk of a job's log: up to 1 MiB of {@code stream} from {@code offset}; {@code nextOffset} is
 * where the next read starts and {@code size} the file's length now.
 */
public record JobLog(String jobId, String stream, long offset, long nextOffset, long size, String data) {
}
