package io.grove.agent.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The two secrets of a node's broker API, each in a file of the work directory that only the
 * agent's user can read (0600; a service's group may be let in with 0640, never others):
 * {@code broker-client.token} for co-located services (submit, update, finish, remove) and
 * {@code broker-admin.token} for the node's admin (also {@code configure}). Jobs run as other
 * users and cannot read either, so no job can hold broker tasks or reconfigure its node. Made at
 * the agent's first start and kept across restarts.
 */
public final class BrokerTokens {

    /** Who a connection is, once its hello was accepted. */
    public enum Role { CLIENT, ADMIN }

    public static final String CLIENT_FILE = "broker-client.token";
    public static final String ADMIN_FILE = "broker-admin.token";

    private final byte[] client;
    private final byte[] admin;
    private final Path dir;

    private BrokerTokens(byte[] client, byte[] admin, Path dir) {
        this.client = client;
        this.admin = admin;
        this.dir = dir;
    }

    /**
     * Reads the tokens in {@code dir}, making those that are missing.
     *
     * @throws IOException if a token file is a link, not a regular file, not the agent's own, or
     *     readable or writable by others
     */
    public static BrokerTokens inDirectory(Path dir) throws IOException {
        return new BrokerTokens(loadOrCreate(dir.resolve(CLIENT_FILE)), loadOrCreate(dir.resolve(ADMIN_FILE)), dir);
    }

    /** The role a hello's token gives, compared in constant time; empty for a wrong token. */
    public Optional<Role> roleOf(String token) {
        byte[] given = token == null ? new byte[0] : token.getBytes(StandardCharsets.UTF_8);
        if (MessageDigest.isEqual(given, admin)) {
            return Optional.of(Role.ADMIN);
        }
        if (MessageDigest.isEqual(given, client)) {
            return Optional.of(Role.CLIENT);
        }
        return Optional.empty();
    }

    /** The client token (for the agent's own tests and tools on the node). */
    public String client() {
        return new String(client, StandardCharsets.UTF_8);
    }

    /** The admin token. */
    public String admin() {
        return new String(admin, StandardCharsets.UTF_8);
    }

    /** Where the token files are. */
    public Path directory() {
        return dir;
    }

    private static byte[] loadOrCreate(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            try {
                Files.writeString(Files.createFile(file, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rw-------"))), token + "\n", StandardCharsets.UTF_8);
            } catch (FileAlreadyExistsException raced) {
                // another start made it meanwhile: read it below
            }
        }
        PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) {
            throw new IOException(file + " is not a regular file (a link?): the broker's token is not read through it");
        }
        Object owner = Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        Object self = Files.getAttribute(file.getParent(), "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (!owner.equals(self)) {
            throw new IOException(file + " belongs to uid " + owner + ", not to the owner of " + file.getParent());
        }
        for (PosixFilePermission open : new PosixFilePermission[] {PosixFilePermission.OTHERS_READ,
                PosixFilePermission.OTHERS_WRITE, PosixFilePermission.GROUP_WRITE}) {
            if (attributes.permissions().contains(open)) {
                throw new IOException(file + " has mode " + PosixFilePermissions.toString(attributes.permissions())
                        + ": jobs could read or change the broker's token; chmod 0600 it (0640 for a service's group)");
            }
        }
        String token = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (token.length() < 16) {
            throw new IOException(file + " holds a token of " + token.length() + " characters; at least 16 are needed");
        }
        return token.getBytes(StandardCharsets.UTF_8);
    }
}
