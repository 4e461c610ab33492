package io.grove.server.http;

import io.grove.http.ApiException;
import io.grove.http.ApiResponse;
import io.grove.http.Routes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The dashboard ({@code docs/dashboard.md}): a page, a script and a style sheet, read from the
 * daemon's jar once and served under {@code /ui/} to anyone (they hold no data: the page reads the
 * API with the user's own token). Nothing else is served from there.
 */
final class UiRoutes extends ApiResource {

    /** The first path segment of the dashboard. */
    static final String PREFIX = "ui";

    private static final Map<String, String> TYPES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "app.js", "text/javascript; charset=utf-8",
            "app.css", "text/css; charset=utf-8");

    private final Map<String, String> files;

    UiRoutes(Parts parts) {
        super(parts);
        this.files = Map.of("index.html", load("index.html"), "app.js", load("app.js"), "app.css", load("app.css"));
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/" + PREFIX, (request, params) -> Routes.done(file("index.html")))
                .doc(Routes.Doc.untyped("the dashboard (HTML)").id("getDashboard"))
                .get("/" + PREFIX + "/{file}", (request, params) -> Routes.done(file(params.get("file"))))
                .doc(Routes.Doc.untyped("the dashboard's script and style sheet").id("getDashboardFile"));
    }

    private ApiResponse file(String name) {
        String body = files.get(name);
        if (body == null) {
            throw ApiException.notFound("no file " + name + " in the dashboard (index.html, app.js, app.css)");
        }
        return new ApiResponse(200, TYPES.get(name), body);
    }

    private static String load(String name) {
        try (InputStream in = UiRoutes.class.getResourceAsStream("/io/grove/server/ui/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard's " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
