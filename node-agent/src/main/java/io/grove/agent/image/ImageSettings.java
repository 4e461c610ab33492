package io.grove.agent.image;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How an agent runs jobs in container images.
 *
 * @param enabled whether it runs them at all ({@code --no-images} turns them off)
 * @param cacheBytes how much disk its cache of images may hold ({@code --image-cache-size});
 *     the least recently used images go first, never one in use
 * @param authFile the node's registry credentials, a Docker-style {@code auth.json}
 *     ({@code --registry-auth-file}); {@code null} for none
 * @param insecureRegistries registries ({@code host:port}) reached over plain HTTP or without
 *     checking their certificate ({@code --insecure-registry})
 * @param failureMemory how long a reference whose pull failed fails new jobs at once, instead of
 *     being pulled again ({@code --image-failure-memory})
 * @param runtime the OCI runtime, by absolute path ({@code --oci-runtime}); {@code null} for
 *     {@code /usr/bin/crun}
 */
public record ImageSettings(boolean enabled, long cacheBytes, Path authFile, List<String> insecureRegistries,
        Duration failureMemory, Path runtime) {

    /** 20 GiB of images by default. */
    public static final long DEFAULT_CACHE_BYTES = 20L << 30;

    public static final ImageSettings DEFAULTS = new ImageSettings(true, DEFAULT_CACHE_BYTES, null, List.of(),
            Duration.ofSeconds(60), null);

    public ImageSettings {
        insecureRegistries = insecureRegistries == null ? List.of() : List.copyOf(insecureRegistries);
        failureMemory = failureMemory == null ? Duration.ofSeconds(60) : failureMemory;
        if (cacheBytes <= 0) {
            throw new IllegalArgumentException("--image-cache-size must be above 0, got " + cacheBytes);
        }
        if (authFile != null && !authFile.isAbsolute()) {
            throw new IllegalArgumentException("--registry-auth-file must be an absolute path, got " + authFile);
        }
        if (runtime != null && !runtime.isAbsolute()) {
            throw new IllegalArgumentException("--oci-runtime must be an absolute path, got " + runtime);
        }
        for (String registry : insecureRegistries) {
            if (!registry.matches("[A-Za-z0-9.-]+(:[0-9]{1,5})?")) {
                throw new IllegalArgumentException("--insecure-registry takes host or host:port, got '" + registry + "'");
            }
        }
    }

    /**
     * Whether a registry is reached over plain HTTP or without checking its certificate: one
     * named by {@code --insecure-registry}, or one on loopback ({@code localhost}, {@code 127.0.0.0/8},
     * {@code [::1]}), as Docker takes them.
     */
    public boolean insecure(String registry) {
        if (insecureRegistries.contains(registry)) {
            return true;
        }
        String host = registry.startsWith("[") ? registry.substring(0, registry.indexOf(']') + 1)
                : registry.contains(":") ? registry.substring(0, registry.indexOf(':')) : registry;
        return host.equals("localhost") || host.equals("[::1]") || host.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    /** These settings with images off. */
    public ImageSettings disabled() {
        return new ImageSettings(false, cacheBytes, authFile, insecureRegistries, failureMemory, runtime);
    }
}
