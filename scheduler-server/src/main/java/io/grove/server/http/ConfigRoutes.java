package io.grove.server.http;

import io.grove.api.ConfigDiff;
import io.grove.api.ConfigView;
import io.grove.api.ErrorDetails;
import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.pool.PoolsConfig;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Routes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The pools file: what is in force, what a candidate would change, and reloading it. */
final class ConfigRoutes extends ApiResource {

    /** Two what-ifs at a time (one per user), each answered within a minute. */
    private final WhatIfs whatIfs = new WhatIfs(2, Duration.ofMinutes(1));

    ConfigRoutes(Parts parts) {
        super(parts);
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/config", (request, params) -> ok(configView()))
                .doc(Routes.Doc.of("the running configuration", ConfigView.class).id("getConfig"))
                .add("POST", "/api/v1/config/diff", (request, params) -> diff(request))
                .doc(Routes.Doc.of("what a candidate pools file would change (nothing is applied)", ConfigDiff.class)
                        .id("diffConfig")
                        .taking(String.class))
                .post("/api/v1/config/reload", (request, params) -> reload(request))
                .doc(Routes.Doc.of("read the pools file again", ConfigView.ReloadStatus.class).id("reloadConfig").errors(409));
    }

    /**
     * A candidate's what-if, admitted by {@link WhatIfs}: parsed and computed on a what-if thread,
     * its inputs taken on the scheduler's thread.
     */
    private CompletableFuture<ApiResponse> diff(ApiRequest request) {
        return whatIfs.run(request.user(), threads -> CompletableFuture.supplyAsync(() -> {
                    present(request);
                    return candidate(request);
                }, threads)
                .thenCompose(candidate -> {
                    PoolsConfig current = config.current();
                    return loop.read(cluster -> {
                        present(request);
                        return ConfigDiffs.prepare(current, candidate, cluster, clock.now());
                    });
                })
                .thenApplyAsync(prepared -> {
                    present(request);
                    return ConfigDiffs.compute(prepared);
                }, threads))
                .thenApply(ApiResponse::ok);
    }

    private ConfigView configView() {
        return new ConfigView(config.file().toString(), config.current().defaultTree(),
                List.copyOf(config.current().trees().keySet()), status(config.status()), config.currentText());
    }

    private PoolsConfig candidate(ApiRequest request) {
        LoadResult<PoolsConfig> candidate =
                PoolsConfigLoader.load(request.body(), "the candidate file");
        if (!candidate.ok()) {
            throw new ApiException(400, "INVALID_CONFIG", "the candidate pools file has "
                    + candidate.problems().size() + " problem(s)", new ErrorDetails.Problems(problems(candidate.problems())));
        }
        return candidate.value();
    }

    private CompletableFuture<ApiResponse> reload(ApiRequest request) {
        request.requireUser();
        if (!config.current().access().isAdmin(identity(request))) {
            throw forbidden(request, "reload", "config", "only the cluster admins "
                    + config.current().access().admins() + " may reload the configuration");
        }
        return config.reload("requested by " + request.user()).thenApply(status -> {
            ConfigView.ReloadStatus body = status(status);
            audit(request, "reload", "config", status.applied() ? "allowed" : "refused", status.message());
            if (!status.applied()) {
                throw new ApiException(status.problems().isEmpty() ? 409 : 400, "RELOAD_REFUSED",
                        status.message(), new ErrorDetails.Problems(problems(status.problems())));
            }
            return ApiResponse.ok(body);
        });
    }
}
