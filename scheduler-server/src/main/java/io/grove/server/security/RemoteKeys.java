package io.grove.server.security;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import io.grove.http.DaemonThreads;
import io.grove.server.Clock;
import java.io.IOException;
import java.net.URL;
import java.text.ParseException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The identity provider's keys from its URL, never fetched on the thread that checks a token: a
 * token is checked against the keys in hand at once (the HTTP event loop never waits on the
 * network), and a token that names a key not in hand starts one fetch on a thread of its own, with
 * short timeouts, at most one at a time and at most once per {@code minInterval} however many such
 * tokens come. The keys are fetched once at start and again every {@link #REFRESH}.
 */
final class RemoteKeys implements JWKSource<SecurityContext>, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteKeys.class);

    /** How long a fetch may take to connect and to read. */
    static final int TIMEOUT_MS = 2_000;
    /** How large a key set may be. */
    static final int MAX_BYTES = 1 << 20;
    /** How often the keys are fetched again, new tokens or not. */
    static final long REFRESH = TimeUnit.MINUTES.toMillis(5);

    private final URL url;
    private final long minIntervalMs;
    private final Clock clock;
    private final ScheduledExecutorService fetcher;
    private final AtomicBoolean fetching = new AtomicBoolean();
    private volatile JWKSet keys;
    private volatile long lastFetchMs = Long.MIN_VALUE / 2;

    RemoteKeys(URL url, long minIntervalMs, Clock clock) {
        this.url = url;
        this.minIntervalMs = Math.max(1, minIntervalMs);
        this.clock = clock;
        this.fetcher = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("grove-jwks"));
        // the first fetch on the starting thread: tokens work from the first request when the provider answers
        fetch();
        fetcher.scheduleWithFixedDelay(this::fetchGuarded, REFRESH, REFRESH, TimeUnit.MILLISECONDS);
    }

    /** The keys in hand that match; a token naming none of them starts a fetch (it may be a new key). */
    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
        JWKSet now = keys;
        List<JWK> found = now == null ? List.of() : selector.select(now);
        if (found.isEmpty()) {
            fetchSoon();
            if (now == null) {
                throw new KeySourceException("no keys fetched yet from " + url);
            }
        }
        return found;
    }

    /** Whether a fetch is on its way (a refusal says the token may work in a moment). */
    boolean fetching() {
        return fetching.get();
    }

    /** Starts a fetch off this thread, unless one runs or the last began less than the minimum interval ago. */
    void fetchSoon() {
        long at = clock.now().toEpochMilli();
        if (at - lastFetchMs < minIntervalMs || !fetching.compareAndSet(false, true)) {
            return;
        }
        try {
            fetcher.execute(() -> {
                try {
                    fetch();
                } finally {
                    fetching.set(false);
                }
            });
        } catch (RejectedExecutionException closed) {
            fetching.set(false);
        }
    }

    private void fetchGuarded() {
        if (fetching.compareAndSet(false, true)) {
            try {
                fetch();
            } finally {
                fetching.set(false);
            }
        }
    }

    private void fetch() {
        lastFetchMs = clock.now().toEpochMilli();
        try {
            JWKSet fetched = JWKSet.load(url, TIMEOUT_MS, TIMEOUT_MS, MAX_BYTES);
            if (fetched.getKeys().stream().anyMatch(JWK::isPrivate)) {
                LOG.error("the identity provider at {} publishes private keys: they are not used", url);
                return;
            }
            keys = fetched;
        } catch (IOException | ParseException | RuntimeException e) {
            LOG.warn("the identity provider's keys cannot be fetched from {} ({}); the {} in hand stay", url,
                    e.getMessage(), keys == null ? "none" : keys.getKeys().size() + " key(s)");
        }
    }

    @Override
    public void close() {
        fetcher.shutdownNow();
    }
}
