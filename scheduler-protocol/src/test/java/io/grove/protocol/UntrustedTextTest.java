package io.grove.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What a peer sends never forges a log line or comes back whole in an error. */
class UntrustedTextTest {

    @Test
    void anUnknownTypeWithNewlinesAndEscapesIsEchoedCutAndEscaped() {
        String forged = "x\n2026-11-26 INFO io.grove.server - node n1 registered\u001b[31m" + "y".repeat(5 << 20);
        byte[] body = ("{\"type\": \"" + forged.replace("\n", "\\n").replace("\u001b", "\\u001b") + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        ProtocolException refused = assertThrows(ProtocolException.class, () -> ProtocolJson.read(body));
        String message = refused.getMessage();
        assertEquals(ErrorCode.UNKNOWN_MESSAGE_TYPE, refused.code());
        assertFalse(message.contains("\n") || message.contains("\u001b"), message);
        assertTrue(message.contains("x\\u000a2026-11-26") && message.contains("\\u001b"), message);
        assertTrue(message.length() < 1024, "the 5 MB type is not echoed: " + message.length() + " characters");
    }

    @Test
    void printableEscapesEveryControlCharacterAndCuts() {
        assertEquals("a\\u000db\\u0009c", Checks.printable("a\rb\tc", 100));
        assertTrue(Checks.printable("z".repeat(1000), 10).startsWith("zzzzzzzzzz… (990 more characters cut)"));
        assertEquals(null, Checks.printable(null, 10));
    }
}
