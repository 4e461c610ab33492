package io.grove.server.accounting;

import io.grove.accounting.AccountingException;
import io.grove.accounting.JdbcAccountingStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the scheduler keeps its accounting, and for how long.
 *
 * @param url {@code null} for SQLite in the data directory ({@code accounting.db}); else a JDBC URL,
 *     {@code jdbc:postgresql://HOST:PORT/DB} (every scheduler of a high-availability group names the
 *     same) or {@code jdbc:sqlite:PATH}
 * @param user the database user, or {@code null}
 * @param passwordFile a file holding the database password (0600), or {@code null}
 * @param retention how long job and operation records are kept; hourly rows are kept
 * @param enabled whether to keep accounting at all
 */
public record AccountingSettings(String url, String user, Path passwordFile, Duration retention, boolean enabled) {

    public static final Duration DEFAULT_RETENTION = Duration.ofDays(90);
    public static final AccountingSettings DEFAULTS = new AccountingSettings(null, null, null, DEFAULT_RETENTION, true);
    public static final AccountingSettings OFF = new AccountingSettings(null, null, null, DEFAULT_RETENTION, false);

    public AccountingSettings {
        retention = retention == null ? DEFAULT_RETENTION : retention;
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("--accounting-retention must be above 0, got " + retention);
        }
    }

    /** Opens the store these settings name; the SQLite default lives in {@code dataDir}. */
    public JdbcAccountingStore open(Path dataDir) throws AccountingException {
        if (url == null) {
            return JdbcAccountingStore.sqlite(dataDir.resolve("accounting.db"));
        }
        String password = null;
        if (passwordFile != null) {
            try {
                password = Files.readString(passwordFile).strip();
            } catch (IOException e) {
                throw new AccountingException("cannot read --accounting-password-file " + passwordFile + ": "
                        + e.getMessage(), e);
            }
        }
        return JdbcAccountingStore.open(url, user, password);
    }
}
