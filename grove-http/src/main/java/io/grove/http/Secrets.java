package io.grove.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Reading and comparing secrets: files trimmed of whitespace, comparisons in constant time. */
public final class Secrets {

    private Secrets() {
    }

    /** A secret kept in a file (its first line, trimmed). */
    public static String read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        int newline = text.indexOf('\n');
        String secret = newline < 0 ? text : text.substring(0, newline).strip();
        if (secret.length() < 16) {
            throw new IOException(file + ": a token must be at least 16 characters, got " + secret.length());
        }
        return secret;
    }

    /** The token of an {@code Authorization: Bearer TOKEN} header, or {@code null} for any other header. */
    public static String bearer(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    /** Whether two secrets are equal, in time that does not depend on where they differ. */
    public static boolean equal(String expected, String given) {
        if (expected == null || given == null) {
            return false;
        }
        return MessageDigest.isEqual(sha256(expected), sha256(given));
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The hex SHA-256 of a secret, as the tokens file may hold it instead of the token. */
    public static String hash(String secret) {
        return HexFormat.of().formatHex(sha256(secret));
    }
}
