package io.grove.server.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A disk that fails on demand: the next writes after {@link #failWritesAfter} bytes throw (the
 * bytes before it do reach the file, as a short write does), renames and truncations can fail;
 * it counts fsyncs.
 */
final class FaultyDisk implements JournalDisk {

    /** Bytes that may still be written before writes fail; negative for no failure. */
    volatile long writeBudget = -1;
    volatile boolean failMove;
    volatile boolean failTruncate;
    /** fsyncs of any file so far. */
    final AtomicInteger forces = new AtomicInteger();

    void failWritesAfter(long bytes) {
        writeBudget = bytes;
    }

    void heal() {
        writeBudget = -1;
        failMove = false;
        failTruncate = false;
    }

    @Override
    public FileChannel open(Path file, Set<? extends OpenOption> options) throws IOException {
        return new Channel(JournalDisk.REAL.open(file, options));
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        if (failMove) {
            throw new IOException("injected: rename failed");
        }
        JournalDisk.REAL.move(from, to);
    }

    private final class Channel extends FileChannel {
        private final FileChannel real;

        Channel(FileChannel real) {
            this.real = real;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            long budget = writeBudget;
            if (budget < 0) {
                return real.write(src);
            }
            if (budget == 0) {
                throw new IOException("injected: no space left on device");
            }
            int n = (int) Math.min(budget, src.remaining());
            ByteBuffer part = src.slice();
            part.limit(n);
            int written = real.write(part);
            src.position(src.position() + written);
            writeBudget = budget - written;
            return written;
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            if (failTruncate) {
                throw new IOException("injected: truncate failed");
            }
            real.truncate(size);
            return this;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return real.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return real.read(dsts, offset, length);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            throw new IOException("not used by the journal");
        }

        @Override
        public long position() throws IOException {
            return real.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            real.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public void force(boolean metaData) throws IOException {
            real.force(metaData);
            forces.incrementAndGet();
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return real.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return real.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return real.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            throw new IOException("not used by the journal");
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return real.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return real.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return real.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            real.close();
        }
    }
}
