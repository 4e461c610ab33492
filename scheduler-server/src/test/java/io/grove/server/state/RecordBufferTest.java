package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** Job ids written without building them come out as the built string would. */
class RecordBufferTest {

    @Test
    void aJobIdIsWrittenAsItsStringWould() {
        String[] operations = {"op-1", "op-123456", "a", "оп-7", "op-ü"};
        long[] sequences = {0, 1, 9, 10, 99, 100, 4_294_967_296L, 999_999_999_999_999_999L};
        for (String operation : operations) {
            for (long sequence : sequences) {
                RecordBuffer direct = new RecordBuffer();
                direct.writeJobId(operation, sequence);
                RecordBuffer built = new RecordBuffer();
                built.writeText(operation + "-" + sequence);
                assertArrayEquals(built.toByteArray(), direct.toByteArray(), operation + "-" + sequence);
            }
        }
    }
}
