package io.grove.server.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Journal records encoded one after another into one growing array (big-endian, as
 * {@code DataOutputStream} writes), so that a group of records costs one write call and no array
 * per record. Owned by one thread.
 */
final class RecordBuffer {

    /**
     * Capacity kept between groups; a larger array is dropped after use. Below half a G1 region of a
     * small heap, so that it is never a humongous object (whose allocation starts a marking cycle).
     */
    static final int KEPT = 256 * 1024;

    private byte[] bytes = new byte[64 * 1024];
    private int size;

    int size() {
        return size;
    }

    byte[] array() {
        return bytes;
    }

    /** Empties the buffer, letting go of an array grown past what a group of job events needs. */
    void reset() {
        size = 0;
        if (bytes.length > KEPT) {
            bytes = new byte[KEPT];
        }
    }

    /** Reserves {@code count} bytes and returns where they start. */
    int skip(int count) {
        ensure(count);
        int at = size;
        size += count;
        return at;
    }

    void writeByte(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
    }

    void writeInt(int value) {
        ensure(4);
        putInt(size, value);
        size += 4;
    }

    void putInt(int at, int value) {
        bytes[at] = (byte) (value >>> 24);
        bytes[at + 1] = (byte) (value >>> 16);
        bytes[at + 2] = (byte) (value >>> 8);
        bytes[at + 3] = (byte) value;
    }

    void putLong(int at, long value) {
        putInt(at, (int) (value >>> 32));
        putInt(at + 4, (int) value);
    }

    void writeLong(long value) {
        ensure(8);
        putLong(size, value);
        size += 8;
    }

    void writeDouble(double value) {
        writeLong(Double.doubleToLongBits(value));
    }

    void write(byte[] data) {
        ensure(data.length);
        System.arraycopy(data, 0, bytes, size, data.length);
        size += data.length;
    }

    /** A nullable string: -1 for null, else its UTF-8 length and bytes (ASCII copied without an array). */
    void writeText(String value) {
        if (value == null) {
            writeInt(-1);
            return;
        }
        int length = value.length();
        for (int i = 0; i < length; i++) {
            if (value.charAt(i) >= 0x80) {
                byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                writeInt(utf8.length);
                write(utf8);
                return;
            }
        }
        writeInt(length);
        ensure(length);
        for (int i = 0; i < length; i++) {
            bytes[size++] = (byte) value.charAt(i);
        }
    }

    /**
     * The id {@code operationId + "-" + sequence} as {@link #writeText} writes it, without building
     * the string.
     */
    void writeJobId(String operationId, long sequence) {
        int length = operationId.length();
        for (int i = 0; i < length; i++) {
            if (operationId.charAt(i) >= 0x80) {
                writeText(operationId + "-" + sequence);
                return;
            }
        }
        int digits = 1;
        for (long rest = sequence / 10; rest > 0; rest /= 10) {
            digits++;
        }
        writeInt(length + 1 + digits);
        ensure(length + 1 + digits);
        for (int i = 0; i < length; i++) {
            bytes[size++] = (byte) operationId.charAt(i);
        }
        bytes[size++] = '-';
        long rest = sequence;
        for (int i = digits - 1; i >= 0; i--) {
            bytes[size + i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        size += digits;
    }

    /** Writes everything to {@code out} from its position. */
    void writeTo(FileChannel out) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 0, size);
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensure(int count) {
        if (size + count > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + count));
        }
    }
}
