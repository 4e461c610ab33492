package io.grove.agent.job;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Directory trees a job wrote, walked without following links (a link is removed or counted as
 * itself, never what it points to). The agent walks a job's tree only once every process of the
 * job is gone, or only to read it, so nothing can swap a directory for a link under the walk in a
 * way that reaches outside the tree.
 */
public final class Trees {

    private Trees() {
    }

    /** Removes a tree; a missing one is fine. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * The bytes of a tree's files (their lengths: a sparse file counts as long as it is), without
     * following links; files that vanish during the walk are skipped.
     */
    public static long diskBytes(Path dir) {
        long[] total = {0};
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    total[0] += attrs.size();
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException gone) {
            return 0;
        } catch (IOException e) {
            return total[0];
        }
        return total[0];
    }

}
