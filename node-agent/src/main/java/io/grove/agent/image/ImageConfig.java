package io.grove.agent.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What an image says of how to run it (its OCI config), as kept in the node's cache.
 *
 * @param reference the reference it was pulled by
 * @param digest the digest it is cached under
 * @param architecture {@code amd64}, {@code arm64}, ...
 * @param os {@code linux}
 * @param env its {@code Env}, {@code NAME=value} each
 * @param entrypoint its {@code Entrypoint}; empty for none
 * @param cmd its {@code Cmd}; empty for none
 * @param workingDir its {@code WorkingDir}; empty for none
 * @param bytes what its layout and root filesystem hold on disk
 */
public record ImageConfig(String reference, String digest, String architecture, String os, List<String> env,
        List<String> entrypoint, List<String> cmd, String workingDir, long bytes) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BLOB = Pattern.compile("sha256:[a-f0-9]{64}");
    /** The largest manifest or config read from a layout. */
    private static final long MAX_JSON = 4 << 20;

    public ImageConfig {
        env = env == null ? List.of() : List.copyOf(env);
        entrypoint = entrypoint == null ? List.of() : List.copyOf(entrypoint);
        cmd = cmd == null ? List.of() : List.copyOf(cmd);
        workingDir = workingDir == null ? "" : workingDir;
        architecture = architecture == null ? "" : architecture;
        os = os == null ? "" : os;
    }

    /**
     * Reads the config of the one image of an OCI layout ({@code index.json}, its manifest, its config).
     *
     * @throws IOException if the layout is not one image with a config
     */
    static ImageConfig read(Path layout, String reference, String digest) throws IOException {
        JsonNode manifest = manifest(layout);
        JsonNode config = blob(layout, manifest.path("config").path("digest").asText());
        JsonNode run = config.path("config");
        return new ImageConfig(reference, digest, config.path("architecture").asText(""), config.path("os").asText(""),
                strings(run.path("Env")), strings(run.path("Entrypoint")), strings(run.path("Cmd")),
                run.path("WorkingDir").asText(""), 0);
    }

    /** A layer of the one image of an OCI layout: its blob and its media type. */
    record Layer(Path blob, String mediaType) {
    }

    /** The layers of the one image of an OCI layout, in order. */
    static List<Layer> layers(Path layout) throws IOException {
        List<Layer> layers = new ArrayList<>();
        for (JsonNode layer : manifest(layout).path("layers")) {
            String digest = layer.path("digest").asText();
            if (!BLOB.matcher(digest).matches()) {
                throw new IOException("the pulled layout names a layer '" + digest + "' that is not sha256:HEX");
            }
            layers.add(new Layer(layout.resolve("blobs").resolve("sha256").resolve(digest.substring(7)),
                    layer.path("mediaType").asText("")));
        }
        return layers;
    }

    /** The manifest of the one image of an OCI layout. */
    private static JsonNode manifest(Path layout) throws IOException {
        JsonNode manifests = json(layout.resolve("index.json")).path("manifests");
        if (!manifests.isArray() || manifests.size() != 1) {
            throw new IOException("the pulled layout holds " + manifests.size() + " manifests, not one");
        }
        return blob(layout, manifests.get(0).path("digest").asText());
    }

    /** This config with its size on disk. */
    ImageConfig withBytes(long size) {
        return new ImageConfig(reference, digest, architecture, os, env, entrypoint, cmd, workingDir, size);
    }

    private static JsonNode blob(Path layout, String digest) throws IOException {
        if (!BLOB.matcher(digest).matches()) {
            throw new IOException("the pulled layout names a blob '" + digest + "' that is not sha256:HEX");
        }
        return json(layout.resolve("blobs").resolve("sha256").resolve(digest.substring(7)));
    }

    private static JsonNode json(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > MAX_JSON) {
            throw new IOException(file.getFileName() + " is missing from the pulled layout or above " + MAX_JSON + " bytes");
        }
        return JSON.readTree(file.toFile());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array.isArray()) {
            array.forEach(item -> out.add(item.asText()));
        }
        return out;
    }

    /** The architecture of this machine as images name it. */
    public static String machineArchitecture() {
        String arch = System.getProperty("os.arch", "");
        return switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "ppc64le" -> "ppc64le";
            case "s390x" -> "s390x";
            default -> arch;
        };
    }

    /** What a job runs when it gives no command: the entry point, then the command; empty for nothing. */
    public List<String> defaultArgs() {
        List<String> args = new ArrayList<>(entrypoint);
        args.addAll(cmd);
        return args;
    }

    /** The value of {@code PATH} in the image's environment, or {@code null}. */
    String path() {
        for (String entry : env) {
            if (entry.startsWith("PATH=")) {
                return entry.substring(5);
            }
        }
        return null;
    }
}
