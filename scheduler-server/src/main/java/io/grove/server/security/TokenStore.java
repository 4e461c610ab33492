package io.grove.server.security;

import io.grove.core.pool.AccessControl.Identity;
import io.grove.http.Secrets;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Users' bearer tokens from a YAML file, reloaded when the file changes (a file with problems is
 * refused whole and the tokens in force stay):
 * <pre>
 * tokens:
 *   - {token: "a-long-random-string", user: alice, groups: [etl]}
 *   - {sha256: "hex of the token", user: bob}
 * </pre>
 * Tokens are looked up by their SHA-256, so no comparison works on the secret itself.
 */
public final class TokenStore {

    private static final Logger LOG = LoggerFactory.getLogger(TokenStore.class);

    private final Path file;
    private final long checkEveryNanos;
    private volatile Map<String, Identity> byHash;
    private volatile long loadedModified;
    private volatile long checkedAtNanos;

    private TokenStore(Path file, Map<String, Identity> byHash, long modified, long checkEveryNanos) {
        this.file = file;
        this.checkEveryNanos = checkEveryNanos;
        this.byHash = byHash;
        this.loadedModified = modified;
        this.checkedAtNanos = System.nanoTime();
    }

    /** Loads the file; its problems are the exception's message. */
    public static TokenStore load(Path file) throws IOException {
        return load(file, Duration.ofSeconds(1));
    }

    /** Loads the file, looking for changes at most every {@code checkEvery}. */
    public static TokenStore load(Path file, Duration checkEvery) throws IOException {
        return new TokenStore(file, parse(file), Files.getLastModifiedTime(file).toMillis(), checkEvery.toNanos());
    }

    /** The identity a token stands for, or {@code null}. Rereads the file when it changed (checked once a second). */
    public Identity identify(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        reloadIfChanged();
        return byHash.get(Secrets.hash(token));
    }

    public int size() {
        return byHash.size();
    }

    private void reloadIfChanged() {
        long now = System.nanoTime();
        if (now - checkedAtNanos < checkEveryNanos) {
            return;
        }
        checkedAtNanos = now;
        try {
            long modified = Files.getLastModifiedTime(file).toMillis();
            if (modified != loadedModified) {
                byHash = parse(file);
                loadedModified = modified;
                LOG.info("tokens file {} reloaded: {} token(s)", file, byHash.size());
            }
        } catch (IOException | RuntimeException e) {
            LOG.error("tokens file {} not reloaded, the tokens in force stay: {}", file, e.getMessage());
        }
    }

    static Map<String, Identity> parse(Path file) throws IOException {
        Object document;
        try (Reader reader = Files.newBufferedReader(file)) {
            document = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
        } catch (RuntimeException e) {
            throw new IOException(file + ": not valid YAML: " + e.getMessage());
        }
        if (!(document instanceof Map<?, ?> top) || !(top.get("tokens") instanceof List<?> entries)) {
            throw new IOException(file + ": expected 'tokens:' with a list of {token or sha256, user, groups}");
        }
        Map<String, Identity> byHash = new HashMap<>();
        int index = 0;
        for (Object entry : entries) {
            String where = file + ": tokens[" + index++ + "]";
            if (!(entry instanceof Map<?, ?> map)) {
                throw new IOException(where + ": expected a mapping");
            }
            for (Object key : map.keySet()) {
                if (!List.of("token", "sha256", "user", "groups").contains(String.valueOf(key))) {
                    throw new IOException(where + ": unknown key '" + key + "' (token, sha256, user, groups)");
                }
            }
            Object user = map.get("user");
            if (!(user instanceof String name) || name.isBlank()) {
                throw new IOException(where + ": 'user' is required");
            }
            String hash;
            if (map.get("token") instanceof String token) {
                if (token.length() < 16) {
                    throw new IOException(where + ": the token of " + name + " is shorter than 16 characters");
                }
                hash = Secrets.hash(token);
            } else if (map.get("sha256") instanceof String hex && hex.matches("[0-9a-fA-F]{64}")) {
                hash = hex.toLowerCase(Locale.ROOT);
            } else {
                throw new IOException(where + ": give 'token' (16 characters or more) or 'sha256' (64 hex digits)");
            }
            List<String> groups = List.of();
            if (map.get("groups") instanceof List<?> list) {
                groups = list.stream().map(String::valueOf).toList();
            } else if (map.get("groups") != null) {
                throw new IOException(where + ": 'groups' must be a list");
            }
            if (byHash.put(hash, new Identity(name, groups)) != null) {
                throw new IOException(where + ": the same token is given twice");
            }
        }
        return Map.copyOf(byHash);
    }
}
