package io.grove.core.node;

/** Recursive-descent parser of {@link NodeFilter} expressions; reports the column of an error. */
final class NodeFilterParser {

    private final String text;
    private int at;

    NodeFilterParser(String text) {
        this.text = text;
    }

    NodeFilter parse() {
        NodeFilter result = or();
        skipSpaces();
        if (at < text.length()) {
            throw error("unexpected '" + text.charAt(at) + "'");
        }
        return result;
    }

    private NodeFilter or() {
        NodeFilter left = and();
        while (accept('|')) {
            left = new NodeFilter.Or(left, and());
        }
        return left;
    }

    private NodeFilter and() {
        NodeFilter left = unary();
        while (accept('&')) {
            left = new NodeFilter.And(left, unary());
        }
        return left;
    }

    private NodeFilter unary() {
        if (accept('!')) {
            return new NodeFilter.Not(unary());
        }
        if (accept('(')) {
            NodeFilter inner = or();
            if (!accept(')')) {
                throw error(at < text.length() ? "expected ')' but found '" + text.charAt(at) + "'" : "missing ')'");
            }
            return inner;
        }
        skipSpaces();
        int start = at;
        while (at < text.length() && isTagChar(text.charAt(at))) {
            at++;
        }
        if (start == at) {
            throw error(at < text.length() ? "expected a tag but found '" + text.charAt(at) + "'" : "expected a tag at the end");
        }
        return new NodeFilter.Tag(text.substring(start, at));
    }

    private boolean accept(char c) {
        skipSpaces();
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void skipSpaces() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    static boolean isTagChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == ':' || c == '/';
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("invalid node filter \"" + text + "\": " + what + " at column " + (at + 1));
    }
}
