package io.grove.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

/** A {@code POST} may say it is a {@code PATCH} (for HTTP stacks without one); nothing else is overridden. */
class MethodOverrideTest {

    static HttpRequest request(HttpMethod method, String override) {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, "/api/v1/operations/op-1");
        if (override != null) {
            request.headers().set(ApiServer.METHOD_OVERRIDE, override);
        }
        return request;
    }

    @Test
    void aPostThatSaysPatchIsAPatch() {
        assertEquals("PATCH", ApiServer.toApi(request(HttpMethod.POST, "PATCH"), "{}", "test").method());
        assertEquals("PATCH", ApiServer.toApi(request(HttpMethod.POST, "patch"), "{}", "test").method());
    }

    @Test
    void nothingElseIsOverridden() {
        assertEquals("POST", ApiServer.toApi(request(HttpMethod.POST, null), "{}", "test").method());
        assertEquals("POST", ApiServer.toApi(request(HttpMethod.POST, "DELETE"), "{}", "test").method());
        assertEquals("POST", ApiServer.toApi(request(HttpMethod.POST, "GET"), "{}", "test").method());
        // a GET (a link, an image) is never made a change
        assertEquals("GET", ApiServer.toApi(request(HttpMethod.GET, "PATCH"), "", "test").method());
        assertEquals("DELETE", ApiServer.toApi(request(HttpMethod.DELETE, "PATCH"), "", "test").method());
    }
}
