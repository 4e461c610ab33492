package io.grove.core.operation;

import java.util.regex.Pattern;

/**
 * A container image reference as Docker and the OCI distribution spec write it:
 * {@code [registry[:port]/]path[:tag][@algorithm:hex]}. Without a registry the image is Docker
 * Hub's ({@code docker.io}, and {@code library/} for one-component names); without a tag or a
 * digest the tag is {@code latest}.
 *
 * @param registry the registry's host, with its port if any
 * @param repository the path within the registry
 * @param tag the tag, or {@code null} when the reference names a digest only
 * @param digest {@code sha256:HEX} (or {@code sha512:}), or {@code null} for a tag to resolve
 */
public record ImageReference(String registry, String repository, String tag, String digest) {

    /** The longest reference accepted, as Docker's own limit on a name. */
    public static final int MAX_LENGTH = 255 + 128 + 136;

    private static final Pattern COMPONENT = Pattern.compile("[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*");
    private static final Pattern DOMAIN = Pattern.compile(
            "(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]{1,5})?");
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");
    private static final Pattern DIGEST = Pattern.compile("sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128}");

    public ImageReference {
        if (tag == null && digest == null) {
            throw new IllegalArgumentException("an image reference needs a tag or a digest");
        }
    }

    /**
     * Reads a reference.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static ImageReference parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("the image reference is empty");
        }
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("the image reference is " + text.length() + " characters long, above the "
                    + MAX_LENGTH + " allowed");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new IllegalArgumentException("the image reference has a space or a control or non-ASCII character at "
                        + "position " + (i + 1));
            }
        }
        String rest = text;
        String digest = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            digest = rest.substring(at + 1);
            rest = rest.substring(0, at);
            if (!DIGEST.matcher(digest).matches()) {
                throw new IllegalArgumentException("the digest '" + digest + "' is not sha256: and 64 lowercase hex digits "
                        + "(or sha512: and 128)");
            }
        }
        String tag = null;
        int slash = rest.lastIndexOf('/');
        int colon = rest.lastIndexOf(':');
        if (colon > slash) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
            if (!TAG.matcher(tag).matches()) {
                throw new IllegalArgumentException("the tag '" + tag + "' is not valid: letters, digits, '_', '.' and '-', "
                        + "at most 128, not starting with '.' or '-'");
            }
        }
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("the image reference has no name");
        }
        String registry = "docker.io";
        String path = rest;
        int first = rest.indexOf('/');
        if (first >= 0) {
            String head = rest.substring(0, first);
            if (head.contains(".") || head.contains(":") || head.equals("localhost")) {
                if (!DOMAIN.matcher(head).matches()) {
                    throw new IllegalArgumentException("the registry '" + head + "' is not a host name with an optional port");
                }
                registry = head;
                path = rest.substring(first + 1);
            }
        }
        if (path.length() > 255) {
            throw new IllegalArgumentException("the image name is " + path.length() + " characters long, above 255");
        }
        for (String component : path.split("/", -1)) {
            if (!COMPONENT.matcher(component).matches()) {
                throw new IllegalArgumentException("'" + component + "' in '" + path + "' is not a valid name component: "
                        + "lowercase letters and digits, separated by '.', '_', '__' or '-'");
            }
        }
        if (registry.equals("docker.io") && !path.contains("/")) {
            path = "library/" + path;
        }
        return new ImageReference(registry, path, digest == null && tag == null ? "latest" : tag, digest);
    }

    /** The repository with its registry: {@code registry/path}. */
    public String name() {
        return registry + "/" + repository;
    }

    /** The reference pinned to a digest: {@code registry/path@digest}. */
    public String pinned(String toDigest) {
        return name() + "@" + toDigest;
    }

    /** Whether it names a digest, so that nothing needs to be resolved. */
    public boolean pinned() {
        return digest != null;
    }

    /** The whole reference: {@code registry/path[:tag][@digest]}. */
    @Override
    public String toString() {
        return name() + (tag == null ? "" : ":" + tag) + (digest == null ? "" : "@" + digest);
    }
}
