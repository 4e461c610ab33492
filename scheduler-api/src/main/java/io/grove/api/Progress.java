package io.grove.api;

/** An operation's jobs: how many of its total wait, run and completed, and how many attempts failed or were aborted. */
public record Progress(long total, long pending, long running, long completed, long failed, long aborted) {
}
