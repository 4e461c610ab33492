package io.grove.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void aPortTakenBeforeTheServerBindsItIsChosenAgain() throws Exception {
        List<Integer> tried = new ArrayList<>();
        List<ServerSocket> taken = new ArrayList<>();
        try (ServerSocket server = Ports.bind(1, ports -> {
            tried.add(ports[0]);
            if (tried.size() == 1) {
                // another process takes the port between the choice and the bind
                taken.add(new ServerSocket(ports[0]));
            }
            return new ServerSocket(ports[0]);
        })) {
            assertEquals(2, tried.size(), "the second choice: " + tried);
            assertNotEquals(tried.get(0), tried.get(1));
            assertEquals(tried.get(1), server.getLocalPort());
        } finally {
            for (ServerSocket socket : taken) {
                socket.close();
            }
        }
    }

    @Test
    void aFailureThatIsNotATakenPortFailsAtOnce() {
        int[] attempts = {0};
        IOException failure = assertThrows(IOException.class, () -> Ports.bind(2, ports -> {
            attempts[0]++;
            throw new IOException("the configuration is wrong");
        }));
        assertEquals("the configuration is wrong", failure.getMessage());
        assertEquals(1, attempts[0]);
        assertTrue(Ports.taken(new IllegalStateException("cannot start", new BindException("in use"))));
    }

    @Test
    void anotherProcessThatSaysItsPortWasTakenIsStartedAgainOnOthers() throws Exception {
        List<Integer> tried = new ArrayList<>();
        int port = Ports.bind(1, ports -> {
            tried.add(ports[0]);
            if (tried.size() == 1) {
                // what a server process prints when it cannot listen
                Ports.refuseIfTaken("FATAL: could not bind IPv4 address \"127.0.0.1\": Address already in use");
            }
            Ports.refuseIfTaken("listening on 127.0.0.1:" + ports[0]);
            return ports[0];
        });
        assertEquals(2, tried.size());
        assertEquals(tried.get(1), port);
    }

    @Test
    void noPortIsHandedOutTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            assertTrue(seen.add(Ports.free()), "handed out twice");
        }
    }
}
