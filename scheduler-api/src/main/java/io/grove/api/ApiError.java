package io.grove.api;

import java.util.List;
import java.util.Map;

/**
 * Every refusal: a code ({@code TOO_MANY_OPERATIONS}, {@code INVALID_SPEC}, ...), a message, and
 * details that depend on the code (e.g. {@code problems}, {@code pool}, {@code limit}).
 */
public record ApiError(String code, String message, Map<String, Object> details) {

    /** The problems of an {@code INVALID_SPEC}, {@code INVALID_CONFIG} or {@code RELOAD_REFUSED}, if any. */
    public List<Problem> problems() {
        Object problems = details == null ? null : details.get("problems");
        return problems == null ? List.of()
                : ApiJson.mapper().convertValue(problems, ApiJson.mapper().getTypeFactory()
                        .constructCollectionType(List.class, Problem.class));
    }
}
