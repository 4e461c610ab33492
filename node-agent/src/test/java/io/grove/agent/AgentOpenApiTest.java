package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's endpoint serves its OpenAPI document too: every route, and nothing a validator finds wrong. */
class AgentOpenApiTest {

    @Test
    void theAgentsEndpointDescribesItself(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 1)) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + agent.httpPort() + "/api/v1/openapi.json")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            ParseOptions options = new ParseOptions();
            options.setResolve(true);
            SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(answer.body(), null, options);
            assertNotNull(parsed.getOpenAPI(), String.valueOf(parsed.getMessages()));
            assertEquals(List.of(), parsed.getMessages());
            assertEquals(java.util.Set.of("/health", "/metrics", "/api/v1/jobs/{job}/logs", "/api/v1/broker", "/api/v1/node",
                    "/api/v1/openapi.json"), parsed.getOpenAPI().getPaths().keySet());
            assertTrue(parsed.getOpenAPI().getComponents().getSchemas().containsKey("AgentNodeView"));
        }
    }
}
