package io.grove.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed details are written as the objects the API has always sent. */
class ErrorDetailsTest {

    @Test
    void eachShapeIsTheObjectClientsRead() throws Exception {
        assertEquals(Map.of("pool", "a", "pool_tree", "physical"), new ErrorDetails.Pool("a", "physical").asMap());
        assertEquals(Map.of("operation_id", "op-1"), new ErrorDetails.Operation("op-1").asMap());
        assertEquals(Map.of("deadline_seconds", 30L), new ErrorDetails.Deadline(30).asMap());
        assertEquals(Map.of("leader", "http://s2:8080"), new ErrorDetails.Leader("http://s2:8080").asMap());
        assertEquals(Map.of(), new ErrorDetails.Leader(null).asMap(), "no leader known: no field");
        ApiError read = ApiJson.read("{\"code\": \"INVALID_SPEC\", \"message\": \"m\", \"details\": "
                + ApiJson.mapper().writeValueAsString(new ErrorDetails.Problems(
                        List.of(new Problem("BAD", "tasks.main", null, 3, "no command"))).asMap()) + "}", ApiError.class);
        assertEquals(List.of(new Problem("BAD", "tasks.main", null, 3, "no command")), read.problems());
    }
}
