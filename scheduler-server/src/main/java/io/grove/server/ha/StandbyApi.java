package io.grove.server.ha;

import io.grove.api.ErrorDetails;
import io.grove.api.Health;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a standby answers on the API port: {@code /healthz} with its role and the leader, and
 * {@code 503 NOT_LEADER} with {@code details.leader} (the leader's API) to everything else, so that
 * clients go to the leader. It holds no state to give.
 */
final class StandbyApi implements Function<ApiRequest, CompletableFuture<ApiResponse>> {

    private final Supplier<Health> health;

    StandbyApi(Supplier<Health> health) {
        this.health = health;
    }

    @Override
    public CompletableFuture<ApiResponse> apply(ApiRequest request) {
        Health now = health.get();
        if (request.path().equals(List.of("healthz"))) {
            return CompletableFuture.completedFuture(ApiResponse.ok(now));
        }
        String leader = now.leader();
        throw new ApiException(503, "NOT_LEADER", leader == null
                ? "this scheduler is a standby and no leader is known yet; try again in a few seconds"
                : "this scheduler is a standby; the leader is at " + leader,
                new ErrorDetails.Leader(leader));
    }
}
