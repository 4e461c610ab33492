package io.grove.core.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeFilterTest {

    record Case(String name, String filter, Set<String> tags, boolean matches) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("empty matches all", "", Set.of("x"), true),
                new Case("tag present", "gpu", Set.of("gpu", "ssd"), true),
                new Case("tag absent", "gpu", Set.of("ssd"), false),
                new Case("not", "!gpu", Set.of("ssd"), true),
                new Case("and binds tighter than or", "a | b & c", Set.of("a"), true),
                new Case("and binds tighter than or, 2", "a | b & c", Set.of("b"), false),
                new Case("parentheses", "(a | b) & c", Set.of("a"), false),
                new Case("parentheses, 2", "(a | b) & c", Set.of("b", "c"), true),
                new Case("double negation", "!!a", Set.of("a"), true),
                new Case("tag characters", "rack-1.dc:eu/x_y", Set.of("rack-1.dc:eu/x_y"), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matches(Case c) {
        assertEquals(c.matches(), NodeFilter.parse(c.filter()).matches(c.tags()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void errorsSayWhere(String filter, String message) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> NodeFilter.parse(filter));
        assertEquals(message, error.getMessage());
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> errors() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("gpu &", "invalid node filter \"gpu &\": expected a tag at the end at column 6"),
                org.junit.jupiter.params.provider.Arguments.of("(a | b", "invalid node filter \"(a | b\": missing ')' at column 7"),
                org.junit.jupiter.params.provider.Arguments.of("a b", "invalid node filter \"a b\": unexpected 'b' at column 3"),
                org.junit.jupiter.params.provider.Arguments.of("a && b", "invalid node filter \"a && b\": expected a tag but found '&' at column 4"));
    }
}
