package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** {@code GET /api/v1/config}: the running pools file, its text, and how the last reload went. */
public record ConfigView(String file, String defaultTree, List<String> trees, ReloadStatus lastReload, String text) {

    /** A reload: when, whether it was applied, and the problems that refused it. */
    public record ReloadStatus(@Timestamp String at, boolean applied, @JsonInclude(JsonInclude.Include.ALWAYS) String message,
            List<Problem> problems) {
    }
}
