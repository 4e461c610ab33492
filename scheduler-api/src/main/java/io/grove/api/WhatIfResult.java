package io.grove.api;

import java.util.List;
import java.util.Map;

/**
 * The what-if tool's output ({@code grove fair-share}, {@code docs/what-if.md}): one fair-share
 * update of one tree. {@code integralState} is in the snapshot's own form, so updates can be chained.
 */
public record WhatIfResult(String tree, Amounts totalResources, List<Alert> alerts, Map<String, ElementView> elements,
        Map<String, IntegralState> integralState) {

    /** A problem the update found, with its attributes (sorted by name). */
    public record Alert(String code, String message, Map<String, String> attributes) {
    }

    /** An integral pool's bucket after the update. */
    public record IntegralState(Amounts accumulatedVolume, double lastShareRatio) {
    }
}
