package io.grove.api;

/** {@code GET /healthz} (the scheduler) and {@code GET /health} (an agent). */
public record Health(String status) {

    public static final Health OK = new Health("ok");
}
