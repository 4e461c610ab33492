package io.grove.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class RoutesTest {

    private static ApiRequest request(String method, String path) {
        List<String> parts = List.of(path.substring(1).split("/"));
        return new ApiRequest(method, parts, Map.of(), null, null, "", "test", List.of(), null, null, null);
    }

    @Test
    void templatesCaptureSegmentsAndMethodsAndLengthsMustMatch() throws Exception {
        ExecutorService blocking = Executors.newSingleThreadExecutor(r -> new Thread(r, "blocking-test"));
        try {
            Routes routes = Routes.builder(blocking, r -> ApiException.notFound("no route " + r.path()))
                    .get("/api/v1/operations", (r, p) -> Routes.done(ApiResponse.json(200, "list")))
                    .get("/api/v1/operations/{id}", (r, p) -> Routes.done(ApiResponse.json(200, "op " + p.get("id"))))
                    .patch("/api/v1/operations/{id}", (r, p) -> Routes.done(ApiResponse.json(200, "patch " + p.get("id"))))
                    .get("/api/v1/operations/{id}/jobs/{job}/logs",
                            (r, p) -> Routes.done(ApiResponse.json(200, p.get("id") + "/" + p.get("job"))))
                    .blocking("GET", "/files/{name}", (r, p) -> ApiResponse.json(200, Thread.currentThread().getName()))
                    .build();
            assertEquals("list", routes.apply(request("GET", "/api/v1/operations")).get().body());
            assertEquals("op op-7", routes.apply(request("GET", "/api/v1/operations/op-7")).get().body());
            assertEquals("patch op-7", routes.apply(request("PATCH", "/api/v1/operations/op-7")).get().body());
            assertEquals("op-7/op-7-3", routes.apply(request("GET", "/api/v1/operations/op-7/jobs/op-7-3/logs")).get().body());
            assertEquals("blocking-test", routes.apply(request("GET", "/files/x")).get().body(), "off the caller's thread");
            assertNotEquals(Thread.currentThread().getName(), "blocking-test");
            ApiException missing = assertThrows(ApiException.class, () -> routes.apply(request("POST", "/api/v1/operations/op-7")));
            assertEquals(404, missing.status());
            assertThrows(ApiException.class, () -> routes.apply(request("GET", "/api/v1/operations/op-7/jobs")));
        } finally {
            blocking.shutdownNow();
        }
    }
}
