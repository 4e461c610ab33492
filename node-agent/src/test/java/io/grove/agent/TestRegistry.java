package io.grove.agent;

import io.grove.agent.job.JobUsers;
import io.grove.testing.Ports;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real container registry on loopback (Debian's {@code docker-registry}, the CNCF distribution
 * registry), optionally behind a login, and images made for the tests from {@code busybox-static}
 * with {@code umoci} and pushed with {@code skopeo}.
 */
final class TestRegistry implements AutoCloseable {

    static final Path REGISTRY = Path.of("/usr/bin/docker-registry");
    static final Path SKOPEO = Path.of("/usr/bin/skopeo");
    static final Path UMOCI = Path.of("/usr/bin/umoci");
    static final Path CRUN = Path.of("/usr/bin/crun");
    static final Path BUSYBOX = Path.of("/bin/busybox");
    static final Path HTPASSWD = Path.of("/usr/bin/htpasswd");
    static final List<String> APPLETS = List.of("sh", "cat", "ls", "id", "sleep", "echo", "dd", "seq", "test", "head",
            "mknod", "true", "false", "nproc", "env", "pwd", "tr", "wc", "grep", "kill", "touch", "rm", "mkdir", "ln", "setsid",
            "tail", "nc", "timeout");

    private final Process process;
    private final Path dir;
    final int port;
    final String user;
    final String password;

    private TestRegistry(Process process, Path dir, int port, String user, String password) {
        this.process = process;
        this.dir = dir;
        this.port = port;
        this.user = user;
        this.password = password;
    }

    /** Why these tests cannot run here, or {@code null} when they can. */
    static String missing() {
        if (!JobUsers.processIsRoot()) {
            return "jobs in images need root";
        }
        for (Path tool : List.of(REGISTRY, SKOPEO, UMOCI, CRUN, BUSYBOX, HTPASSWD)) {
            if (!Files.isExecutable(tool)) {
                return tool + " is not installed";
            }
        }
        return null;
    }

    /** A registry storing in {@code dir}; with a user, pulls and pushes need that login. */
    static TestRegistry start(Path dir, String user, String password) throws Exception {
        return Ports.bind(1, ports -> start(dir, user, password, ports[0]));
    }

    private static TestRegistry start(Path dir, String user, String password, int port) throws Exception {
        Files.createDirectories(dir.resolve("storage"));
        StringBuilder config = new StringBuilder("version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: "
                + dir.resolve("storage") + "\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:" + port + "\n");
        if (user != null) {
            String line = run(List.of(HTPASSWD.toString(), "-Bbn", user, password)).strip();
            Files.writeString(dir.resolve("htpasswd"), line + "\n");
            config.append("auth:\n  htpasswd:\n    realm: grove-test\n    path: ").append(dir.resolve("htpasswd")).append('\n');
        }
        Files.writeString(dir.resolve("config.yml"), config);
        Process process = new ProcessBuilder(REGISTRY.toString(), "serve", dir.resolve("config.yml").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("registry.log").toFile()).start();
        TestRegistry registry = new TestRegistry(process, dir, port, user, password);
        HttpClient http = HttpClient.newHttpClient();
        ClusterFixture.await("the registry to answer", ClusterFixture.unchecked(() -> {
            if (!process.isAlive()) {
                String log = Files.readString(dir.resolve("registry.log"));
                Ports.refuseIfTaken(log);
                throw new IllegalStateException("the registry exited: " + log);
            }
            HttpResponse<Void> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v2/"))
                    .build(), HttpResponse.BodyHandlers.discarding());
            return answer.statusCode() == 200 || answer.statusCode() == 401;
        }));
        return registry;
    }

    String host() {
        return "127.0.0.1:" + port;
    }

    /**
     * An image to push: files besides busybox, its Env, Entrypoint and Cmd, its architecture; device
     * nodes it carries ({@code path -> "b 7 0"}, mode 0666) and files made set-uid.
     */
    record Image(Map<String, String> files, List<String> env, List<String> entrypoint, List<String> cmd,
            String architecture, int randomMiB, boolean shell, Map<String, String> devices, List<String> setUid) {

        Image(Map<String, String> files, List<String> env, List<String> entrypoint, List<String> cmd,
                String architecture, int randomMiB, boolean shell) {
            this(files, env, entrypoint, cmd, architecture, randomMiB, shell, Map.of(), List.of());
        }

        static Image plain() {
            return new Image(Map.of("/etc/os-release", "PRETTY_NAME=\"Grove test image\"\nID=grovetest\n"),
                    List.of("PATH=/bin", "IMAGE_VAR=from-image", "LANG=image-lang"), List.of(), List.of("/bin/sh"),
                    null, 0, true);
        }
    }

    /** Builds {@code image} and pushes it as {@code name:tag}; returns its reference. */
    String push(String name, String tag, Image image) throws Exception {
        Path work = Files.createTempDirectory(dir, "image-");
        Path rootfs = Files.createDirectories(work.resolve("rootfs"));
        Path bin = Files.createDirectories(rootfs.resolve("bin"));
        Files.copy(BUSYBOX, bin.resolve("busybox"));
        for (String applet : APPLETS) {
            if (image.shell() || !applet.equals("sh")) {
                Files.createSymbolicLink(bin.resolve(applet), Path.of("busybox"));
            }
        }
        for (Map.Entry<String, String> file : image.files().entrySet()) {
            Path at = rootfs.resolve(file.getKey().substring(1));
            Files.createDirectories(at.getParent());
            Files.writeString(at, file.getValue());
        }
        for (Map.Entry<String, String> device : image.devices().entrySet()) {
            Path at = rootfs.resolve(device.getKey().substring(1));
            Files.createDirectories(at.getParent());
            List<String> mknod = new ArrayList<>(List.of("/usr/bin/mknod", "-m", "0666", at.toString()));
            mknod.addAll(List.of(device.getValue().split(" ")));
            run(mknod);
        }
        for (String file : image.setUid()) {
            Files.setAttribute(rootfs.resolve(file.substring(1)), "unix:mode", 04755);
        }
        if (image.randomMiB() > 0) {
            byte[] chunk = new byte[1 << 20];
            java.util.Random random = new java.util.Random(7);
            try (var out = Files.newOutputStream(rootfs.resolve("payload"))) {
                for (int i = 0; i < image.randomMiB(); i++) {
                    random.nextBytes(chunk);
                    out.write(chunk);
                }
            }
        }
        String layout = work.resolve("layout") + ":" + tag;
        run(List.of(UMOCI.toString(), "init", "--layout", work.resolve("layout").toString()));
        run(List.of(UMOCI.toString(), "new", "--image", layout));
        run(List.of(UMOCI.toString(), "insert", "--image", layout, rootfs.toString(), "/"));
        List<String> config = new ArrayList<>(List.of(UMOCI.toString(), "config", "--image", layout));
        image.env().forEach(e -> config.addAll(List.of("--config.env", e)));
        image.entrypoint().forEach(e -> config.addAll(List.of("--config.entrypoint", e)));
        image.cmd().forEach(e -> config.addAll(List.of("--config.cmd", e)));
        if (image.architecture() != null) {
            config.addAll(List.of("--architecture", image.architecture()));
        }
        run(config);
        List<String> push = new ArrayList<>(List.of(SKOPEO.toString(), "copy", "--insecure-policy", "--quiet",
                "--dest-tls-verify=false"));
        if (user != null) {
            push.add("--dest-creds=" + user + ":" + password);
        }
        push.addAll(List.of("oci:" + layout, "docker://" + host() + "/" + name + ":" + tag));
        run(push);
        return host() + "/" + name + ":" + tag;
    }

    /** A Docker-style auth file (root's, 0600) with a login for this registry. */
    Path authFile(Path where, String login, String secret) throws IOException {
        String auth = java.util.Base64.getEncoder().encodeToString((login + ":" + secret).getBytes(StandardCharsets.UTF_8));
        Files.deleteIfExists(where);
        Files.createFile(where, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        Files.writeString(where, "{\"auths\": {\"" + host() + "\": {\"auth\": \"" + auth + "\"}}}\n");
        return where;
    }

    static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
