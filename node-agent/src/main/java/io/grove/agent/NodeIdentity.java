package io.grove.agent;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The node's id: the one given, else the one kept in {@code WORK/node-id}, else a new one
 * ({@code HOSTNAME-xxxxxx}) written there, so that the id survives restarts.
 */
public final class NodeIdentity {

    private NodeIdentity() {
    }

    public static String resolve(String given, Path workDir) throws IOException {
        Path file = workDir.resolve("node-id");
        if (given != null && !given.isBlank()) {
            write(file, given);
            return given;
        }
        if (Files.exists(file)) {
            String kept = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!kept.isEmpty()) {
                return kept;
            }
        }
        byte[] random = new byte[3];
        new SecureRandom().nextBytes(random);
        String id = hostname() + "-" + HexFormat.of().formatHex(random);
        write(file, id);
        return id;
    }

    private static void write(Path file, String id) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling("node-id.tmp");
        Files.writeString(tmp, id + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String hostname() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            int dot = name.indexOf('.');
            return (dot > 0 ? name.substring(0, dot) : name).replaceAll("[^A-Za-z0-9-]", "-");
        } catch (IOException e) {
            return "node";
        }
    }
}
