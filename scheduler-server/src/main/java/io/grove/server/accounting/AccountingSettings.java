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
 * @param meterEvery how often the pools are sampled for metering
 * @param writeMeteringEvery how often metering's rows go to the database (a crash loses none: the
 *     next start resumes from where the rows left off)
 */
public record AccountingSettings(String url, String user, Path passwordFile, Duration retention, boolean enabled,
        Duration meterEvery, Duration writeMeteringEvery) {

    public static final Duration DEFAULT_RETENTION = Duration.ofDays(90);
    public static final AccountingSettings DEFAULTS = new AccountingSettings(null, null, null, DEFAULT_RETENTION, true);
    public static final AccountingSettings OFF = new AccountingSettings(null, null, null, DEFAULT_RETENTION, false);

    public AccountingSettings(String url, String user, Path passwordFile, Duration retention, boolean enabled) {
        this(url, user, passwordFile, retention, enabled, null, null);
    }

    /** These settings with metering sampled and written at the given periods (tests). */
    public AccountingSettings withMetering(Duration sample, Duration write) {
        return new AccountingSettings(url, user, passwordFile, retention, enabled, sample, write);
    }

    public AccountingSettings {
        meterEvery = meterEvery == null ? Ledger.METER_EVERY : meterEvery;
        writeMeteringEvery = writeMeteringEvery == null ? Ledger.WRITE_METERING_EVERY : writeMeteringEvery;
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
