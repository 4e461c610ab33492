package io.grove.server.security;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit log: one JSON object per line for every submit, abort, update and reload, and every
 * refusal (401, 403, refused nodes), with the user and the source address.
 */
public final class AuditLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The most characters of an untrusted field (a user, a node id, a path) kept in a line. */
    static final int FIELD_LIMIT = 256;
    static final int DETAIL_LIMIT = 1024;

    private final Writer out;

    /** One line of the log, its fields in this order; {@code detail} is left out when there is none. */
    record Entry(String at, String user, String source, String action, String target, String outcome,
            @JsonInclude(JsonInclude.Include.NON_NULL) String detail) {
    }

    public AuditLog(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------")));
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * Records one event.
     *
     * @param outcome {@code allowed} or {@code refused}
     * @param detail the operation, the rule that refused, or what went wrong
     */
    public synchronized void record(Instant at, String user, String source, String action, String target, String outcome,
            String detail) {
        Entry line = new Entry(at.toString(), cut(user, FIELD_LIMIT), cut(source, FIELD_LIMIT), cut(action, FIELD_LIMIT),
                cut(target, FIELD_LIMIT), outcome, detail == null ? null : cut(detail, DETAIL_LIMIT));
        try {
            out.write(JSON.writeValueAsString(line));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            LOG.error("cannot write the audit log: {}", e.getMessage());
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    /** Untrusted text cut to {@code max} characters, with how much was left out. */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, max) + "… (" + (text.length() - max) + " more characters)";
    }
}
