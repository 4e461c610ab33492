package io.grove.server.state;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** How the journal reaches the disk: the real file system, or one that fails on purpose in tests. */
interface JournalDisk {

    /** Opens a file, created 0600 if it does not exist. */
    FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException;

    /** Renames atomically, replacing the target. */
    void move(Path from, Path to) throws IOException;

    JournalDisk REAL = new JournalDisk() {
        @Override
        public FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException {
            return FileChannel.open(file, options, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }

        @Override
        public void move(Path from, Path to) throws IOException {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
    };
}
