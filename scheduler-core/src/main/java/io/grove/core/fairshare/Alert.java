package io.grove.core.fairshare;

import java.util.Map;

/**
 * An alert raised by an update, with the numbers behind it.
 *
 * @param code typed reason
 * @param message the reference's wording
 * @param attributes details (resource vectors as text, pool names)
 */
public record Alert(AlertCode code, String message, Map<String, String> attributes) {

    public Alert {
        attributes = Map.copyOf(attributes);
    }
}
