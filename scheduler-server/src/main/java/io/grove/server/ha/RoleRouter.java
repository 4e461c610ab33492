package io.grove.server.ha;

import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.HeaderGate;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The one API a high-availability scheduler serves across its roles: the leading daemon's while it
 * leads, the standby's ({@code 503 NOT_LEADER}) otherwise. The port stays open through a takeover,
 * so clients get an answer that sends them on instead of a refused connection. A leader whose lease
 * lapsed answers as a standby until it is confirmed again.
 */
final class RoleRouter implements Function<ApiRequest, CompletableFuture<ApiResponse>>, HeaderGate {

    private final Function<ApiRequest, CompletableFuture<ApiResponse>> standby;
    private final BooleanSupplier mayAct;
    private volatile Function<ApiRequest, CompletableFuture<ApiResponse>> leader;

    RoleRouter(Function<ApiRequest, CompletableFuture<ApiResponse>> standby, BooleanSupplier mayAct) {
        this.standby = standby;
        this.mayAct = mayAct;
    }

    private Function<ApiRequest, CompletableFuture<ApiResponse>> current() {
        Function<ApiRequest, CompletableFuture<ApiResponse>> current = leader;
        return current != null && mayAct.getAsBoolean() ? current : null;
    }

    /** The leading daemon's API, or {@code null} to answer as a standby. */
    void lead(Function<ApiRequest, CompletableFuture<ApiResponse>> api) {
        this.leader = api;
    }

    @Override
    public ApiException checkHead(ApiRequest head) {
        Function<ApiRequest, CompletableFuture<ApiResponse>> current = current();
        return current instanceof HeaderGate gate ? gate.checkHead(head) : null;
    }

    @Override
    public CompletableFuture<ApiResponse> apply(ApiRequest request) {
        Function<ApiRequest, CompletableFuture<ApiResponse>> current = current();
        return (current != null ? current : standby).apply(request);
    }
}
