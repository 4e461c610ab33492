package io.grove.agent.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.grove.agent.job.SafeDirs;
import io.grove.agent.job.SystemPrograms;
import io.grove.agent.job.Trees;
import io.grove.core.operation.ImageReference;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's cache of images, one directory per digest under the work directory's
 * {@code images/} (the agent's alone, 0700):
 * <pre>
 * images/sha256-HEX/layout/      the image as pulled: an OCI layout (skopeo)
 * images/sha256-HEX/rootfs/      its root filesystem, unpacked once (umoci), shared read-only by its jobs
 * images/sha256-HEX/image.json   its config and size, written last: an entry without it is not one
 * images/.pull-HEX/              a pull under way; removed at start (so are a tool's leftover .errors- files)
 * images/policy.json             skopeo's signature policy for the node's pulls
 * </pre>
 * Its methods that run programs block, and run on the agent's image threads; the index of what is
 * cached may be read from any thread.
 */
public final class ImageStore {

    private static final Logger LOG = LoggerFactory.getLogger(ImageStore.class);
    private static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    private static final Pattern FATAL = Pattern.compile("msg=\"((?:[^\"\\\\]|\\\\.)*)\"");
    /** How long resolving a tag may take. */
    static final long RESOLVE_TIMEOUT_S = 120;
    /** How long one pull (copy and unpack) may take. */
    static final long PULL_TIMEOUT_S = 3600;
    /** The most of a program's output kept for its error. */
    static final int OUTPUT_BYTES = 16 * 1024;

    private final Path dir;
    private final ImageTools tools;
    private final ImageSettings settings;
    private final Map<String, ImageConfig> cached = new ConcurrentHashMap<>();
    private final Map<String, Long> lastUsed = new ConcurrentHashMap<>();

    private ImageStore(Path dir, ImageTools tools, ImageSettings settings) {
        this.dir = dir;
        this.tools = tools;
        this.settings = settings;
    }

    /** Opens the cache in {@code dir}: pulls a crash left are removed, complete entries are found again. */
    public static ImageStore open(Path dir, ImageTools tools, ImageSettings settings, long now) throws IOException {
        SafeDirs.ensure(dir, "rwx------");
        ImageStore store = new ImageStore(dir, tools, settings);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.startsWith(".pull-") || name.startsWith(".errors-")) {
                    Trees.delete(entry);
                } else if (name.startsWith("sha256-") && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    Path record = entry.resolve("image.json");
                    if (!Files.isRegularFile(record, LinkOption.NOFOLLOW_LINKS)) {
                        Trees.delete(entry);
                        continue;
                    }
                    ImageConfig config = JSON.readValue(record.toFile(), ImageConfig.class);
                    store.cached.put(config.digest(), config);
                    store.lastUsed.put(config.digest(), Files.getLastModifiedTime(record).toMillis());
                }
            }
        }
        Path policy = dir.resolve("policy.json");
        Files.deleteIfExists(policy);
        Files.createFile(policy, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        // signatures are not checked: the digest pins the content, the node's registries and credentials choose the source
        Files.writeString(policy, "{\"default\": [{\"type\": \"insecureAcceptAnything\"}]}\n");
        if (settings.authFile() != null) {
            checkAuthFile(settings.authFile());
        }
        return store;
    }

    /** The node's credentials are a secret: a regular file of root's that nobody else may read. */
    static void checkAuthFile(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("--registry-auth-file " + file + " is not a regular file");
        }
        Object owner = Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS));
        if (!Integer.valueOf(0).equals(owner) || !mode.substring(3).equals("------")) {
            throw new IOException("--registry-auth-file " + file + " must be root's and readable by root only (0600), is "
                    + mode + " of uid " + owner);
        }
    }

    /** The image cached under {@code digest}, if it is. */
    public Optional<ImageConfig> cached(String digest) {
        return Optional.ofNullable(cached.get(digest));
    }

    /** A job started from the image: it is the most recently used (kept as its record's time, for the next start). */
    public void used(String digest, long now) {
        if (cached.containsKey(digest)) {
            lastUsed.put(digest, now);
            try {
                Files.setLastModifiedTime(entry(digest).resolve("image.json"), FileTime.fromMillis(now));
            } catch (IOException e) {
                LOG.warn("image {}: cannot record its use: {}", digest, e.getMessage());
            }
        }
    }

    /** The read-only root filesystem of a cached image. */
    public Path rootfs(String digest) {
        return entry(digest).resolve("rootfs");
    }

    /** What the cache holds on disk. */
    public long bytes() {
        return cached.values().stream().mapToLong(ImageConfig::bytes).sum();
    }

    public int count() {
        return cached.size();
    }

    public long limitBytes() {
        return settings.cacheBytes();
    }

    /** Where a pull of {@code digest} is being written, for its progress. */
    Path pullDir(String digest) {
        return dir.resolve(".pull-" + hex(digest));
    }

    /** How much of a pull under way is on disk. */
    long pulledBytes(String digest) {
        Path layout = pullDir(digest).resolve("layout");
        return Files.isDirectory(layout) ? Trees.diskBytes(layout) : 0;
    }

    /** A tag resolved to a digest, and the image's size when its manifest says it ({@code -1} for a list of platforms). */
    public record Resolved(String digest, long bytes) {
    }

    /**
     * Resolves a reference to the digest of its manifest (one request: the manifest, hashed here).
     *
     * @throws PullException saying why (unknown image, refused credentials, registry down)
     */
    public Resolved resolve(ImageReference ref) throws PullException {
        List<String> command = new ArrayList<>(List.of(tools.skopeo().toString(), "--policy", policy(), "inspect", "--raw"));
        command.addAll(credentials(ref, ""));
        command.add("docker://" + ref);
        byte[] manifest = run(command, RESOLVE_TIMEOUT_S, "cannot resolve " + ref, null);
        String digest = ref.pinned() ? ref.digest() : "sha256:" + sha256(manifest);
        return new Resolved(digest, manifestBytes(manifest));
    }

    /**
     * Pulls an image by digest and unpacks it once; the entry appears whole or not at all.
     *
     * @throws PullException saying why it cannot be pulled or cannot run here
     */
    public ImageConfig pull(ImageReference ref, String digest) throws PullException {
        Path work = pullDir(digest);
        try {
            if (Files.exists(work, LinkOption.NOFOLLOW_LINKS)) {
                Trees.delete(work);
            }
            SafeDirs.ensure(work, "rwx------");
            List<String> copy = new ArrayList<>(List.of(tools.skopeo().toString(), "--policy", policy(), "copy", "--quiet"));
            copy.addAll(credentials(ref, "src-"));
            copy.addAll(List.of("docker://" + ref.pinned(digest), "oci:" + work.resolve("layout") + ":image"));
            run(copy, PULL_TIMEOUT_S, "cannot pull " + ref, work);
            ImageConfig config = ImageConfig.read(work.resolve("layout"), ref.toString(), digest);
            String machine = ImageConfig.machineArchitecture();
            if (!config.architecture().isEmpty() && !config.architecture().equals(machine)
                    || !config.os().isEmpty() && !config.os().equals("linux")) {
                throw new PullException("image " + ref + " is for " + config.os() + "/" + config.architecture()
                        + " and cannot run on this node (linux/" + machine + ")");
            }
            // an image is not trusted: what it unpacks to is bounded before anything is written
            long bound = settings.cacheBytes();
            long unpacked = Unpacked.unpackedBytes(work.resolve("layout"), bound);
            if (unpacked > bound) {
                throw new PullException(tooLarge(ref, bound));
            }
            run(List.of(tools.umoci().toString(), "raw", "unpack", "--image", work.resolve("layout") + ":image",
                    work.resolve("rootfs").toString()), PULL_TIMEOUT_S, "cannot unpack " + ref, work);
            if (unpacked < 0 && Trees.diskBytes(work.resolve("rootfs")) > bound) {
                throw new PullException(tooLarge(ref, bound));
            }
            Unpacked.Dropped dropped = Unpacked.sanitize(work.resolve("rootfs"));
            if (dropped.any()) {
                LOG.warn("image {} carried {}: removed before any job runs it", ref, dropped);
            }
            config = config.withBytes(Trees.diskBytes(work));
            Path record = work.resolve("image.json.tmp");
            JSON.writeValue(record.toFile(), config);
            Files.move(record, work.resolve("image.json"), StandardCopyOption.ATOMIC_MOVE);
            Path entry = entry(digest);
            if (Files.exists(entry, LinkOption.NOFOLLOW_LINKS)) {
                Trees.delete(entry);
            }
            Files.move(work, entry, StandardCopyOption.ATOMIC_MOVE);
            cached.put(digest, config);
            lastUsed.put(digest, System.currentTimeMillis());
            return config;
        } catch (PullException e) {
            deleteQuietly(work);
            throw e;
        } catch (IOException | RuntimeException e) {
            deleteQuietly(work);
            throw new PullException("cannot pull " + ref + ": " + e.getMessage());
        }
    }

    /**
     * Removes the least recently used images until the cache is within its size, never one in use.
     *
     * @return the digests removed
     */
    public List<String> evict(Set<String> inUse) {
        List<String> removed = new ArrayList<>();
        long total = bytes();
        List<String> oldestFirst = new ArrayList<>(cached.keySet());
        oldestFirst.sort(Comparator.comparingLong(d -> lastUsed.getOrDefault(d, 0L)));
        for (String digest : oldestFirst) {
            if (total <= settings.cacheBytes()) {
                break;
            }
            if (inUse.contains(digest)) {
                continue;
            }
            ImageConfig gone = cached.remove(digest);
            lastUsed.remove(digest);
            total -= gone.bytes();
            deleteQuietly(entry(digest));
            removed.add(digest);
            LOG.info("image {} ({}, {} MiB) removed from the cache: it holds {} MiB at most", gone.reference(), digest,
                    gone.bytes() >> 20, settings.cacheBytes() >> 20);
        }
        return removed;
    }

    private Path entry(String digest) {
        return dir.resolve("sha256-" + hex(digest));
    }

    private static String hex(String digest) {
        return digest.substring(digest.indexOf(':') + 1);
    }

    private String policy() {
        return dir.resolve("policy.json").toString();
    }

    /** The flags for the node's credentials and the registry's transport ({@code prefix}: {@code src-} for copy). */
    private List<String> credentials(ImageReference ref, String prefix) {
        List<String> flags = new ArrayList<>();
        flags.add(settings.authFile() == null ? "--" + prefix + "no-creds" : "--" + prefix + "authfile=" + settings.authFile());
        if (settings.insecure(ref.registry())) {
            flags.add("--" + prefix + "tls-verify=false");
        }
        return flags;
    }

    /**
     * Runs a tool of the node's with the fixed environment ({@code TMPDIR} in the pull's directory,
     * so that its temporary files count where the pull is); its output is bounded.
     */
    private byte[] run(List<String> command, long timeoutS, String what, Path tmp) throws PullException {
        ProcessBuilder builder = SystemPrograms.fixed(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (tmp != null) {
            builder.environment().put("TMPDIR", tmp.toString());
        }
        try {
            // the tool's errors go to a file of the agent's own, in its cache
            Path errors = Files.createTempFile(tmp != null ? tmp : dir, ".errors-", "");
            try {
                builder.redirectError(ProcessBuilder.Redirect.to(errors.toFile()));
                Process process = builder.start();
                byte[] out;
                try (InputStream in = process.getInputStream()) {
                    out = in.readNBytes(8 << 20);
                    in.transferTo(OutputStream.nullOutputStream());
                }
                if (!process.waitFor(timeoutS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new PullException(what + ": " + command.get(0) + " did not finish within " + timeoutS + " s");
                }
                if (process.exitValue() != 0) {
                    throw new PullException(what + ": " + explain(tail(errors)));
                }
                return out;
            } finally {
                Files.deleteIfExists(errors);
            }
        } catch (PullException e) {
            throw e;
        } catch (IOException e) {
            throw new PullException(what + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PullException(what + ": interrupted");
        }
    }

    private static String tail(Path file) throws IOException {
        long size = Files.size(file);
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long from = Math.max(0, size - OUTPUT_BYTES);
            in.seek(from);
            byte[] bytes = new byte[(int) (size - from)];
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /**
     * What a tool's error means for a user: the registry's verdict first (no such image, refused
     * credentials, unreachable), then the tool's own words.
     */
    static String explain(String stderr) {
        Matcher fatal = FATAL.matcher(stderr);
        String said = stderr.strip();
        while (fatal.find()) {
            said = fatal.group(1).replace("\\\"", "\"");
        }
        said = said.length() > 1000 ? said.substring(0, 1000) + "…" : said;
        String lower = said.toLowerCase(Locale.ROOT);
        String verdict;
        if (lower.contains("manifest unknown") || lower.contains("name unknown") || lower.contains("not found")) {
            verdict = "no such image in the registry";
        } else if (lower.contains("unauthorized") || lower.contains("authentication required") || lower.contains("denied")
                || lower.contains("401") || lower.contains("403")) {
            verdict = "the registry refused the node's credentials";
        } else if (lower.contains("connection refused") || lower.contains("no such host") || lower.contains("timeout")
                || lower.contains("network is unreachable") || lower.contains("server gave http response to https")) {
            verdict = "the registry cannot be reached";
        } else {
            verdict = "the pull failed";
        }
        return verdict + " (" + said + ")";
    }

    private static String tooLarge(ImageReference ref, long bound) {
        return "image " + ref + " unpacks to more than " + (bound >> 20) + " MiB, all the node's image cache may hold "
                + "(--image-cache-size)";
    }

    /** The image's size from its manifest: config and layers; {@code -1} for a list of platforms. */
    static long manifestBytes(byte[] manifest) {
        try {
            JsonNode node = JSON.readTree(manifest);
            if (!node.has("layers")) {
                return -1;
            }
            long total = node.path("config").path("size").asLong(0);
            for (JsonNode layer : node.path("layers")) {
                total += layer.path("size").asLong(0);
            }
            return total;
        } catch (IOException e) {
            return -1;
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                Trees.delete(path);
            }
        } catch (IOException e) {
            LOG.warn("cannot remove {}: {}", path, e.getMessage());
        }
    }
}
