package io.grove.core.operation;

import java.util.List;
import java.util.Map;

/** A pool configuration that would remove pools or trees still in use; nothing was changed. */
public final class ReloadRefusedException extends RuntimeException {

    private final Map<String, List<String>> inUse;

    public ReloadRefusedException(String message, Map<String, List<String>> inUse) {
        super(message);
        this.inUse = Map.copyOf(inUse);
    }

    /** What would be removed ("pool \"etl\" in tree \"physical\"") and the operations that use it. */
    public Map<String, List<String>> inUse() {
        return inUse;
    }
}
