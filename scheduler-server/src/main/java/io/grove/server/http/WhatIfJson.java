package io.grove.server.http;

import io.grove.api.ApiJson;
import io.grove.api.ElementView;
import io.grove.api.WhatIfResult;
import io.grove.core.fairshare.Alert;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.IntegralState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a fair-share result in the what-if output format of {@code docs/what-if.md}
 * ({@link WhatIfResult}): shares as objects of the five resources, volumes absolute, and
 * {@code integral_state} in the snapshot's own form so that updates can be chained.
 */
public final class WhatIfJson {

    private WhatIfJson() {
    }

    public static WhatIfResult of(FairShareInput input, FairShareResult result) {
        List<WhatIfResult.Alert> alerts = new ArrayList<>();
        for (Alert alert : result.alerts()) {
            alerts.add(new WhatIfResult.Alert(ApiValues.lower(alert.code()), alert.message(),
                    new TreeMap<>(alert.attributes())));
        }
        Map<String, ElementView> elements = new LinkedHashMap<>();
        for (ElementShares element : result.elements().values()) {
            elements.put(element.id(), ApiValues.element(element));
        }
        Map<String, WhatIfResult.IntegralState> integral = new LinkedHashMap<>();
        for (Map.Entry<String, IntegralState> entry : result.integralState().entrySet()) {
            integral.put(entry.getKey(), new WhatIfResult.IntegralState(
                    ApiValues.amounts(entry.getValue().accumulatedVolume()), entry.getValue().lastShareRatio()));
        }
        return new WhatIfResult(input.tree().name(), ApiValues.amounts(input.totalResources()), alerts, elements,
                integral);
    }

    public static String toJson(FairShareInput input, FairShareResult result) {
        return ApiJson.write(of(input, result)) + "\n";
    }

    public static void write(FairShareInput input, FairShareResult result, Writer out) {
        try {
            out.write(toJson(input, result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
