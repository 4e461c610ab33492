package io.grove.server.http;

import io.grove.api.ErrorDetails;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.protocol.Checks;
import java.util.List;
import java.util.Map;

/**
 * Lists are answered a page at a time: {@code limit} items at most ({@value #MAX_PAGE}, the default),
 * from the place {@code cursor} names. A page that is not the last carries the next page's cursor
 * in {@value #NEXT_CURSOR}; a client pages until a page comes without one.
 */
final class Pages {

    static final int MAX_PAGE = 1000;
    static final String NEXT_CURSOR = "X-Next-Cursor";

    private Pages() {
    }

    /** The page size asked for: 1 to {@value #MAX_PAGE}, else 400. */
    static int limit(ApiRequest request) {
        int limit = ApiResource.intParam(request, "limit", MAX_PAGE);
        if (limit < 1 || limit > MAX_PAGE) {
            throw new ApiException(400, "BAD_PARAMETER", "'limit' must be 1 to " + MAX_PAGE + ", got " + limit
                    + "; page through longer lists with the cursor in the " + NEXT_CURSOR + " header",
                    new ErrorDetails.MaxLimit(MAX_PAGE));
        }
        return limit;
    }

    /**
     * Query parameter {@code name} as one of {@code allowed} (case aside), or {@code null} when
     * absent; anything else is refused with the values it may take, not answered with an empty list.
     */
    static String oneOf(ApiRequest request, String name, List<String> allowed) {
        String value = request.query().get(name);
        if (value == null) {
            return null;
        }
        for (String one : allowed) {
            if (one.equalsIgnoreCase(value)) {
                return one;
            }
        }
        throw new ApiException(400, "BAD_PARAMETER", "'" + name + "' must be one of " + String.join(", ", allowed)
                + ", got '" + Checks.printable(value, 64) + "'", Map.of());
    }

    static ApiException badCursor(String cursor, String why) {
        return new ApiException(400, "BAD_CURSOR", "cursor '" + Checks.printable(cursor, 64)
                + "' " + why + "; start again without one", Map.of());
    }

    /** A page, with the next one's cursor when there is more. */
    static ApiResponse page(List<?> items, String next) {
        ApiResponse page = ApiResponse.ok(items);
        return next == null ? page : page.withHeader(NEXT_CURSOR, next);
    }
}
