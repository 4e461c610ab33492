package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A problem in a pools file or a spec: its code, the pool path and attribute, the line, what is wrong. */
public record Problem(String code, @JsonInclude(JsonInclude.Include.ALWAYS) String path,
        @JsonInclude(JsonInclude.Include.ALWAYS) String attribute, int line, String message) {
}
