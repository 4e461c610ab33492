package io.grove.core.accounting;

import io.grove.core.resource.ResourceType;

/**
 * Resource-seconds of one pool, one kind, in one hour of one tree; added to what the hour already
 * holds.
 *
 * @param hour the hour's start, epoch seconds (a multiple of 3,600)
 * @param seconds resource-seconds per resource ({@link ResourceType} order): CPU-seconds, byte-seconds, ...
 */
public record HourlyUsage(String tree, String pool, long hour, MeterKind kind, double[] seconds) {

    public HourlyUsage {
        if (hour % Metering.HOUR != 0) {
            throw new IllegalArgumentException("an hour starts at a multiple of 3600 s, got " + hour);
        }
        if (seconds.length != ResourceType.COUNT) {
            throw new IllegalArgumentException("resource-seconds of " + ResourceType.COUNT + " resources, got " + seconds.length);
        }
    }

    public double get(ResourceType resource) {
        return seconds[resource.ordinal()];
    }
}
