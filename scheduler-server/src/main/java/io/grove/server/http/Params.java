package io.grove.server.http;

import io.grove.http.Routes.Param;

/** The query parameters several routes read, as the OpenAPI document describes them: one wording each. */
final class Params {

    static final Param LIMIT = Param.integer("limit", "the most items on a page (1 to 1000; default 100 for "
            + "operations, 1000 for jobs)");
    static final Param CURSOR = Param.text("cursor", "the page after the one whose X-Next-Cursor this is");
    static final Param TREE = Param.text("tree", "only this pool tree");
    static final Param POOL = Param.text("pool", "only this pool (for usage and history, and the pools below it)");
    static final Param USER = Param.text("user", "only this user's");
    static final Param SINCE = Param.text("since", "from: a duration back from now (30d, 12h, 90m) or a time "
            + "(2026-11-01, 2026-11-01T06:00:00Z)");
    static final Param UNTIL = Param.text("until", "until: a duration back from now or a time (default now)");

    private Params() {
    }
}
