package io.grove.core.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ResourceAmountsTest {

    static Stream<Arguments> valid() {
        return Stream.of(
                Arguments.of(ResourceType.MEMORY, "4Gi", 4.0 * (1L << 30)),
                Arguments.of(ResourceType.MEMORY, "500M", 500e6),
                Arguments.of(ResourceType.MEMORY, "1Ti", (double) (1L << 40)),
                Arguments.of(ResourceType.MEMORY, "1.5Ki", 1536.0),
                Arguments.of(ResourceType.MEMORY, 1048576000L, 1048576000.0),
                Arguments.of(ResourceType.CPU, "1.25", 1.25),
                Arguments.of(ResourceType.CPU, 3, 3.0),
                Arguments.of(ResourceType.USER_SLOTS, "10", 10.0));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("valid")
    void parsesAmounts(ResourceType type, Object raw, double expected) {
        assertEquals(expected, ResourceAmounts.parse(type, raw));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(ResourceType.MEMORY, "4Gb", "unknown unit"),
                Arguments.of(ResourceType.CPU, "1.125", "two decimal"),
                Arguments.of(ResourceType.CPU, "4Gi", "only accepted for memory"),
                Arguments.of(ResourceType.USER_SLOTS, "1.5", "whole number"),
                Arguments.of(ResourceType.MEMORY, "-1", "negative"),
                Arguments.of(ResourceType.MEMORY, "lots", "not a number"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("invalid")
    void refusesBadAmounts(ResourceType type, Object raw, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResourceAmounts.parse(type, raw));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertTrue(e.getMessage().startsWith(type.key()), e.getMessage());
    }

    @Test
    void sharesFollowTheZeroRules() {
        assertEquals(0, ShareVector.ratio(0, 0));
        assertEquals(1, ShareVector.ratio(5, 0));
        assertEquals(0.25, ShareVector.ratio(1, 4));
        ShareVector share = ShareVector.of(new Resources(1, 2, 0, 3, 4), new Resources(10, 4, 0, 30, 0));
        assertEquals(new ShareVector(0.1, 0.5, 0, 0.1, 1), share);
        assertEquals(ResourceType.NETWORK, share.dominantResource());
    }

    @Test
    void quantizesToEachResourcesPrecision() {
        assertEquals(new Resources(10, 11.06, 0, 990, 0), new Resources(9.9, 11.0583, 0, 990.4, 0).quantized());
        assertEquals("4Gi", ResourceAmounts.formatBytes(4.0 * (1L << 30)));
    }
}
