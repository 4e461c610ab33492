package io.grove.server.http;

import io.grove.api.StateEvent;
import io.grove.core.pool.AccessControl;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Routes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** {@code GET /api/v1/events}: changes of operations and jobs as Server-Sent Events. */
final class EventRoutes extends ApiResource {

    private final EventHub hub;

    EventRoutes(Parts parts, EventHub hub) {
        super(parts);
        this.hub = hub;
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/events", (request, params) -> events(request))
                .doc(Routes.Doc.of("changes of operations and jobs as they happen (text/event-stream; each data is one)",
                        StateEvent.class).id("streamEvents").eventStream().query(
                        Routes.Param.text("operation", "only this operation's events"),
                        Routes.Param.text("pool", "only events of operations in this pool"),
                        Routes.Param.integer("last_event_id", "resume after this event (0: every kept event first); "
                                + "the Last-Event-ID header does the same")));
    }

    private CompletableFuture<ApiResponse> events(ApiRequest request) {
        String operation = request.query().get("operation");
        String pool = request.query().get("pool");
        Long last = null;
        String given = request.query().get("last_event_id");
        if (given != null && !given.isBlank()) {
            try {
                last = Long.parseLong(given.strip());
            } catch (NumberFormatException e) {
                throw new ApiException(400, "BAD_PARAMETER", "Last-Event-ID must be an event's number, got '"
                        + (given.length() > 40 ? given.substring(0, 40) + "..." : given) + "'");
            }
        }
        String user = request.user() == null ? "" : request.user();
        hub.refuseBeyondBounds(user);
        AccessControl.Identity identity = identity(request);
        EventHub.Reader reader = new EventHub.Reader() {
            @Override
            public String user() {
                return user;
            }

            @Override
            public boolean mayReadOutput(String owner, Map<String, List<String>> placements) {
                return owner.equals(user) || mayAdminister(identity, placements);
            }
        };
        return Routes.done(ApiResponse.stream(hub.stream(new EventHub.Filter(operation, pool), reader, last)));
    }
}
