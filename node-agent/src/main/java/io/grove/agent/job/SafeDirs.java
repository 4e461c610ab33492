package io.grove.agent.job;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Directories the agent makes or changes, perhaps as root, made so that no job can redirect it:
 * each is created fresh or found as a real directory (never through a link) that belongs to the
 * agent's user and that no one else may write to, under parents that are the same; otherwise the
 * agent refuses to use it. A job can only plant a link where it can write, so no path the agent
 * trusts passes through a place a job could have written to.
 */
public final class SafeDirs {

    private SafeDirs() {
    }

    /**
     * Makes {@code dir} and its missing parents with {@code mode}, then checks the whole chain from
     * the first directory it made (or {@code dir} itself) down.
     *
     * @throws IOException if a component is a link, not a directory, not the agent's, or writable by others
     */
    public static Path ensure(Path dir, String mode) throws IOException {
        Path absolute = dir.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent != null && !Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            ensureParent(parent, mode);
        }
        try {
            Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
        } catch (FileAlreadyExistsException exists) {
            // checked below
        }
        check(absolute);
        setMode(absolute, mode);
        return absolute;
    }

    /**
     * Parents of a directory the agent makes: made with {@code mode} if missing; an existing one
     * must belong to root or the agent's user, and be writable by others only with the sticky bit
     * (as {@code /tmp}), where no one can move the agent's entries.
     */
    private static void ensureParent(Path parent, String mode) throws IOException {
        if (!Files.exists(parent, LinkOption.NOFOLLOW_LINKS)) {
            ensure(parent, mode);
            return;
        }
        for (Path at = parent; at != null; at = at.getParent()) {
            Path real = at.toRealPath();
            Object owner = Files.getAttribute(real, "unix:uid");
            int mode2 = (Integer) Files.getAttribute(real, "unix:mode");
            boolean othersWrite = (mode2 & 0022) != 0;
            boolean sticky = (mode2 & 01000) != 0;
            if (!Files.isDirectory(real) || !(owner.equals(0) || owner.equals(selfUid())) || othersWrite && !sticky) {
                throw new IOException(at + " (" + real + ", uid " + owner + ", mode " + Integer.toOctalString(mode2 & 07777)
                        + ") is not a directory of root or the agent's user closed to others: someone else could move "
                        + "what the agent makes under it");
            }
        }
    }

    /**
     * Creates a directory that must not exist yet under a checked parent: a leftover of the same
     * name is removed first (it can only be the agent's own, since no one else can write there).
     */
    public static Path fresh(Path dir, String mode) throws IOException {
        check(dir.getParent());
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Trees.delete(dir);
        }
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
        setMode(dir, mode);
        return dir;
    }

    /**
     * Checks that {@code dir} is a real directory (not a link) of the agent's user that no one else
     * may write to.
     */
    public static void check(Path dir) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.isSymbolicLink() || !attributes.isDirectory()) {
            throw new IOException(dir + " is " + (attributes.isSymbolicLink() ? "a symbolic link" : "not a directory")
                    + ": the agent does not use it (a job may have planted it)");
        }
        Object owner = Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (!owner.equals(selfUid())) {
            throw new IOException(dir + " belongs to uid " + owner + ", not to the agent's user (" + selfUid()
                    + "): the agent does not use it");
        }
        Set<PosixFilePermission> perms = attributes.permissions();
        if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException(dir + " has mode " + PosixFilePermissions.toString(perms)
                    + ": others could write there, so the agent does not use it");
        }
    }

    /** Sets a mode on a directory checked not to be a link. */
    private static void setMode(Path dir, String mode) throws IOException {
        if (Files.isSymbolicLink(dir)) {
            throw new IOException(dir + " became a symbolic link");
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode));
    }

    /** The agent's own effective uid, from {@code /proc/self/status}. */
    static Integer selfUid() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Uid:")) {
                return Integer.valueOf(line.split("\\s+")[2]);
            }
        }
        throw new IOException("no Uid line in /proc/self/status");
    }
}
