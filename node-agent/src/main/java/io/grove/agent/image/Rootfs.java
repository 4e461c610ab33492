package io.grove.agent.image;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Paths inside an image's root filesystem, resolved as the container will see them: a symbolic link
 * is followed within the root (an absolute target starts again at the root, {@code ..} stops at
 * it), never out to the host's files, at most 40 links deep. The image is not trusted.
 */
final class Rootfs {

    private static final int MAX_LINKS = 40;

    private Rootfs() {
    }

    /** Whether {@code path} (absolute in the image) is a regular file there. */
    static boolean isFile(Path root, String path) {
        try {
            Path found = resolve(root, path);
            return found != null && Files.isRegularFile(found, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether a program the image would run is there: an absolute path as is, else the first
     * directory of {@code searchPath} (the image's {@code PATH}) that has it.
     */
    static boolean hasProgram(Path root, String program, String searchPath) {
        if (program.startsWith("/")) {
            return isFile(root, program);
        }
        if (program.contains("/")) {
            // relative to the working directory: the runtime says whether it is there
            return true;
        }
        String dirs = searchPath == null ? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" : searchPath;
        for (String dir : dirs.split(":")) {
            if (!dir.isEmpty() && isFile(root, dir + "/" + program)) {
                return true;
            }
        }
        return false;
    }

    /** The host path of {@code path} inside {@code root}, every link resolved within it; {@code null} if a link loops. */
    static Path resolve(Path root, String path) throws IOException {
        Deque<String> left = new ArrayDeque<>();
        push(left, path);
        Deque<String> at = new ArrayDeque<>();
        int links = 0;
        while (!left.isEmpty()) {
            String name = left.pop();
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                at.pollLast();
                continue;
            }
            Path candidate = join(root, at).resolve(name);
            if (Files.isSymbolicLink(candidate)) {
                if (++links > MAX_LINKS) {
                    return null;
                }
                String target = Files.readSymbolicLink(candidate).toString();
                if (target.startsWith("/")) {
                    at.clear();
                }
                push(left, target);
                continue;
            }
            at.addLast(name);
        }
        return join(root, at);
    }

    /**
     * Makes the mount point {@code path} (absolute in the image) where it is missing: a directory,
     * or with {@code file} an empty file, and the directories above it. Done before a container of
     * the image starts, so that its runtime finds them: two runtimes starting at once on the shared
     * root would otherwise race to make them, and the loser fails ({@code cannot mkdir `sys`: File
     * exists}). A component that is a symbolic link is left to the runtime, which resolves it
     * within the root; nothing is made through one (the image is not trusted).
     */
    static void mountPoint(Path root, String path, boolean file) throws IOException {
        String[] parts = path.split("/");
        Path at = root;
        int last = parts.length - 1;
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty() || parts[i].equals(".") || parts[i].equals("..")) {
                if (parts[i].equals("..")) {
                    return;
                }
                continue;
            }
            at = at.resolve(parts[i]);
            if (Files.isSymbolicLink(at)) {
                return;
            }
            if (Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                if (i < last && !Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                    return;
                }
                continue;
            }
            try {
                if (i == last && file) {
                    Files.createFile(at);
                } else {
                    Files.createDirectory(at);
                }
            } catch (FileAlreadyExistsException e) {
                // another job's start made it meanwhile
                if (Files.isSymbolicLink(at)) {
                    return;
                }
            }
        }
    }

    /** Puts the components of {@code path} in front of what is left, in order. */
    private static void push(Deque<String> left, String path) {
        String[] parts = path.split("/");
        for (int i = parts.length - 1; i >= 0; i--) {
            left.push(parts[i]);
        }
    }

    private static Path join(Path root, Deque<String> parts) {
        Path path = root;
        for (String part : parts) {
            path = path.resolve(part);
        }
        return path;
    }
}
