package io.grove.agent.image;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.GZIPInputStream;

/**
 * What an unpacked image may not keep. {@code umoci raw unpack}, run as root, makes every device
 * node a layer carries and keeps set-user-id and set-group-id bits; an image is not trusted, so
 * before any job runs it every block and character device is removed (a job gets its devices from
 * its runtime's {@code /dev}, never from its image) and every set-id bit is cleared (a job runs with
 * no new privileges anyway). Links are never followed: only the entries of the image itself change.
 */
final class Unpacked {

    private static final int TYPE = 0170000;
    private static final int CHARACTER = 0020000;
    private static final int BLOCK = 0060000;
    private static final int SET_ID = 06000;

    /** What was taken out of an image. */
    record Dropped(int devices, int setIds) {

        boolean any() {
            return devices > 0 || setIds > 0;
        }

        @Override
        public String toString() {
            return devices + " device node(s) and " + setIds + " set-id file(s)";
        }
    }

    private Unpacked() {
    }

    /**
     * How many bytes the layers of an OCI layout unpack to at most (their tar streams, decompressed
     * and counted, nothing written), stopping once past {@code bound}; {@code -1} when a layer's
     * compression cannot be read here (zstd): then the unpacked tree is measured instead.
     */
    static long unpackedBytes(Path layout, long bound) throws IOException {
        long total = 0;
        for (ImageConfig.Layer layer : ImageConfig.layers(layout)) {
            String type = layer.mediaType();
            // OCI's ...layer.v1.tar[+gzip], Docker's ...rootfs.diff.tar[.gzip]
            boolean gzip = type.endsWith("+gzip") || type.endsWith(".gzip");
            boolean plain = type.endsWith(".tar");
            if (!gzip && !plain) {
                return -1;
            }
            try (InputStream raw = Files.newInputStream(layer.blob());
                    InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw) {
                byte[] buffer = new byte[1 << 16];
                for (int read; (read = in.read(buffer)) > 0; ) {
                    total += read;
                    if (total > bound) {
                        return total;
                    }
                }
            }
        }
        return total;
    }

    /** Removes the device nodes and clears the set-id bits under {@code rootfs}. */
    static Dropped sanitize(Path rootfs) throws IOException {
        int[] counts = new int[2];
        Files.walkFileTree(rootfs, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isSymbolicLink()) {
                    return FileVisitResult.CONTINUE;
                }
                int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
                int type = mode & TYPE;
                if (type == CHARACTER || type == BLOCK) {
                    Files.delete(file);
                    counts[0]++;
                } else if ((mode & SET_ID) != 0) {
                    Files.setAttribute(file, "unix:mode", mode & 07777 & ~SET_ID, LinkOption.NOFOLLOW_LINKS);
                    counts[1]++;
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return new Dropped(counts[0], counts[1]);
    }
}
