package io.grove.core.fairshare;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The immutable result of one update.
 *
 * @param alerts configuration alerts
 * @param elements every element by id: the root first, then pools and operations depth-first
 * @param integralState the state to feed into the next update
 */
public record FairShareResult(List<Alert> alerts, Map<String, ElementShares> elements,
        Map<String, IntegralState> integralState) {

    public FairShareResult {
        alerts = List.copyOf(alerts);
        elements = Collections.unmodifiableMap(new LinkedHashMap<>(elements));
        integralState = Collections.unmodifiableMap(new LinkedHashMap<>(integralState));
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
