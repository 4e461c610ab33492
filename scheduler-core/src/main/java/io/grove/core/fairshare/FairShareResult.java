package io.grove.core.fairshare;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The immutable result of one update.
 *
 * <p>{@link #alerts()} are configuration alerts; {@link #elements()} has every element by id, the
 * root first, then pools and operations depth-first; {@link #integralState()} is the state to feed
 * into the next update.
 */
public final class FairShareResult {

    private final List<Alert> alerts;
    private final Map<String, ElementShares> elements;
    private final Map<String, IntegralState> integralState;

    public FairShareResult(List<Alert> alerts, Map<String, ElementShares> elements, Map<String, IntegralState> integralState) {
        this(alerts, new LinkedHashMap<>(elements), new LinkedHashMap<>(integralState), true);
    }

    /** Takes ownership of maps that nobody else holds. */
    private FairShareResult(List<Alert> alerts, LinkedHashMap<String, ElementShares> elements,
            LinkedHashMap<String, IntegralState> integralState, boolean owned) {
        this.alerts = List.copyOf(alerts);
        this.elements = Collections.unmodifiableMap(elements);
        this.integralState = Collections.unmodifiableMap(integralState);
    }

    static FairShareResult owning(List<Alert> alerts, LinkedHashMap<String, ElementShares> elements,
            LinkedHashMap<String, IntegralState> integralState) {
        return new FairShareResult(alerts, elements, integralState, true);
    }

    public List<Alert> alerts() {
        return alerts;
    }

    public Map<String, ElementShares> elements() {
        return elements;
    }

    public Map<String, IntegralState> integralState() {
        return integralState;
    }

    public ElementShares element(String id) {
        ElementShares shares = elements.get(id);
        if (shares == null) {
            throw new IllegalArgumentException("no element '" + id + "' in the result");
        }
        return shares;
    }

    public ElementShares root() {
        return element(io.grove.core.pool.PoolTreeConfig.ROOT);
    }
}
