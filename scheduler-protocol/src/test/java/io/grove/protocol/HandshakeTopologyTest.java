package io.grove.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.resource.Resources;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A node says where it sits in its handshake: kept in its order, checked like every field a node sends. */
class HandshakeTopologyTest {

    private static String handshake(String topology) {
        return "{\"type\": \"handshake\", \"protocol_version\": 3, \"node_id\": \"n1\", \"tags\": [], "
                + "\"resource_limits\": {\"cpu\": 4}, \"running_jobs\": [], \"finished_jobs\": []"
                + (topology == null ? "" : ", \"topology\": " + topology) + "}";
    }

    @Test
    void theTopologyTravelsInItsOrderAndAnOldHandshakeHasNone() throws Exception {
        Handshake read = (Handshake) ProtocolJson.read(handshake("{\"block\": \"b1\", \"rack\": \"r07\"}")
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("block", "rack"), List.copyOf(read.topology().keySet()));
        assertEquals("block=b1,rack=r07", read.where().toString());
        Handshake again = (Handshake) ProtocolJson.read(ProtocolJson.write(read));
        assertEquals(read.topology(), again.topology());
        Handshake old = (Handshake) ProtocolJson.read(handshake(null).getBytes(StandardCharsets.UTF_8));
        assertTrue(old.topology().isEmpty());
        String written = new String(ProtocolJson.write(new Handshake(3, "n1", "", List.of(), new Resources(1, 1, 0, 0, 0),
                List.of(), null)), StandardCharsets.UTF_8);
        assertFalse(written.contains("topology"), "none: not written");
    }

    @Test
    void aTopologyThatIsNotNamesOrTooDeepIsRefusedNamingTheField() {
        ProtocolException bad = assertThrows(ProtocolException.class, () -> ProtocolJson.read(
                handshake("{\"rack\": \"r 07\\n2026-11-28 INFO forged\"}").getBytes(StandardCharsets.UTF_8)));
        assertTrue(bad.getMessage().contains("'topology'") && bad.getMessage().contains("is not a name"), bad.getMessage());
        assertFalse(bad.getMessage().contains("\n"), bad.getMessage());
        StringBuilder deep = new StringBuilder("{");
        for (int i = 0; i < 9; i++) {
            deep.append(i == 0 ? "" : ", ").append("\"l").append(i).append("\": \"d\"");
        }
        ProtocolException tooDeep = assertThrows(ProtocolException.class, () -> ProtocolJson.read(
                handshake(deep.append('}').toString()).getBytes(StandardCharsets.UTF_8)));
        assertTrue(tooDeep.getMessage().contains("at most 8 levels"), tooDeep.getMessage());
    }
}
