package io.grove.server.coord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The schedulers' identity in ZooKeeper: a digest user and password, read from a file of their own
 * ({@code --zookeeper-auth-file}: one line {@code USER:PASSWORD}, mode 0600 or stricter). A
 * scheduler with it authenticates its session and creates every znode with {@code
 * CREATOR_ALL_ACL}: only a client that authenticates as the same user can read, change or delete
 * the group's state. Its password is never written anywhere else, logged or shown.
 */
public final class ZkAuth {

    /** What a file may hold at most: one short line. */
    private static final int MAX_BYTES = 4096;

    private final String user;
    private final byte[] secret;

    private ZkAuth(String user, byte[] secret) {
        this.user = user;
        this.secret = secret;
    }

    /** An identity given directly (tests). */
    public static ZkAuth of(String user, String password) {
        check(user, password, "the identity");
        return new ZkAuth(user, (user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads {@code file}: one line {@code USER:PASSWORD}, closed to everyone but its owner.
     *
     * @throws IOException saying what is wrong with it and where
     */
    public static ZkAuth read(Path given) throws IOException {
        // a Kubernetes secret's file is a link into its ..data directory: the file it names is checked
        Path file = given.toRealPath();
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("the ZooKeeper auth file " + given + " is not a regular file");
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
        for (PosixFilePermission open : List.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE)) {
            if (mode.contains(open)) {
                throw new IOException("the ZooKeeper auth file " + file + " is mode "
                        + PosixFilePermissions.toString(mode)
                        + ": it holds the group's password, so it must be 0600 (chmod 600 " + file + ")");
            }
        }
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException("the ZooKeeper auth file " + file + " is over " + MAX_BYTES + " bytes: it holds one line "
                    + "USER:PASSWORD");
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
        if (lines.size() != 1) {
            throw new IOException("the ZooKeeper auth file " + file + " must hold one line USER:PASSWORD, it holds "
                    + lines.size());
        }
        String line = lines.get(0).strip();
        int colon = line.indexOf(':');
        String user = colon < 0 ? line : line.substring(0, colon);
        String password = colon < 0 ? "" : line.substring(colon + 1);
        try {
            check(user, password, file.toString());
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        return new ZkAuth(user, line.getBytes(StandardCharsets.UTF_8));
    }

    private static void check(String user, String password, String where) {
        if (user.isEmpty() || !user.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException(where + ": the ZooKeeper user must be 1 to 64 letters, digits, '.', '_' "
                    + "or '-' before the ':'");
        }
        if (password.length() < 16) {
            throw new IllegalArgumentException(where + ": the ZooKeeper password must be at least 16 characters "
                    + "(for example: openssl rand -hex 24)");
        }
    }

    /** The digest scheme's authentication bytes ({@code USER:PASSWORD}). */
    byte[] bytes() {
        return secret.clone();
    }

    public String user() {
        return user;
    }

    /** The ACL of every znode the group creates: all rights to the identity that created it, none to anyone else. */
    static List<ACL> acl() {
        return ZooDefs.Ids.CREATOR_ALL_ACL;
    }

    @Override
    public String toString() {
        return "digest:" + user + ":(password withheld)";
    }
}
