package io.grove.core.node;

import java.util.Set;

/**
 * A boolean expression over node tags, as in a tree's {@code nodes_filter}: tags combined with
 * {@code &}, {@code |}, {@code !} and parentheses ({@code !} binds tightest, then {@code &}, then
 * {@code |}). The empty expression matches every node. Tags are made of letters, digits and
 * {@code _ - . : /}.
 */
public sealed interface NodeFilter {

    /** The filter that matches every node. */
    NodeFilter ALL = new Constant(true);

    /** The longest expression accepted (it may come from a user's spec; the parser recurses on parentheses). */
    int MAX_LENGTH = 1024;

    boolean matches(Set<String> tags);

    /**
     * Parses an expression.
     *
     * @throws IllegalArgumentException with the position of the first error
     */
    static NodeFilter parse(String expression) {
        if (expression == null || expression.isBlank()) {
            return ALL;
        }
        if (expression.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a filter may have at most " + MAX_LENGTH + " characters, got "
                    + expression.length());
        }
        return new NodeFilterParser(expression).parse();
    }

    /** A tag that must be present. */
    record Tag(String name) implements NodeFilter {
        @Override
        public boolean matches(Set<String> tags) {
            return tags.contains(name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Negation. */
    record Not(NodeFilter operand) implements NodeFilter {
        @Override
        public boolean matches(Set<String> tags) {
            return !operand.matches(tags);
        }

        @Override
        public String toString() {
            return "!" + operand;
        }
    }

    /** Both operands. */
    record And(NodeFilter left, NodeFilter right) implements NodeFilter {
        @Override
        public boolean matches(Set<String> tags) {
            return left.matches(tags) && right.matches(tags);
        }

        @Override
        public String toString() {
            return "(" + left + " & " + right + ")";
        }
    }

    /** Either operand. */
    record Or(NodeFilter left, NodeFilter right) implements NodeFilter {
        @Override
        public boolean matches(Set<String> tags) {
            return left.matches(tags) || right.matches(tags);
        }

        @Override
        public String toString() {
            return "(" + left + " | " + right + ")";
        }
    }

    /** Always or never. */
    record Constant(boolean value) implements NodeFilter {
        @Override
        public boolean matches(Set<String> tags) {
            return value;
        }

        @Override
        public String toString() {
            return value ? "<all nodes>" : "<no nodes>";
        }
    }
}
