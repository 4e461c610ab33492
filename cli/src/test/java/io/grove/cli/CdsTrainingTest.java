package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The launcher's training run (what the class-data archive of short commands is made from) runs
 * its commands against its own stand-in scheduler, through the same HTTP path the commands take.
 */
class CdsTrainingTest {

    @Test
    void eachCommandAsksTheStandIn() throws Exception {
        List<String> asked = CdsTraining.train();
        for (String path : List.of("/api/v1/operations", "/api/v1/operations/op-1", "/api/v1/nodes",
                "/api/v1/pool_trees", "/api/v1/operations/op-1/jobs", "/api/v1/usage")) {
            assertTrue(asked.stream().anyMatch(line -> line.startsWith("GET " + path + "?") || line.startsWith("GET " + path + " ")),
                    path + " in " + asked);
        }
        assertTrue(asked.size() >= CdsTraining.COMMANDS.size(), asked.toString());
    }

    @Test
    void itExitsWithZero() {
        assertEquals(0, Grove.run(new java.io.PrintWriter(java.io.Writer.nullWriter()),
                new java.io.PrintWriter(java.io.Writer.nullWriter()), "cds-training"));
    }
}
