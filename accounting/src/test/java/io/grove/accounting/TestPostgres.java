package io.grove.accounting;

import io.grove.testing.Ports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway PostgreSQL server from Debian's package, on a loopback port, with its data in a
 * directory of the test's; run as {@code postgres} when the tests run as root (PostgreSQL refuses root).
 */
public final class TestPostgres implements AutoCloseable {

    static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");

    private final Path data;
    private final Path dir;
    public final int port;

    private TestPostgres(Path dir, Path data, int port) {
        this.dir = dir;
        this.data = data;
        this.port = port;
    }

    /** Why PostgreSQL cannot run here, or {@code null}. */
    public static String missing() {
        return Files.isExecutable(BIN.resolve("initdb")) ? null : "PostgreSQL 15 is not installed (apt-get install postgresql)";
    }

    /** Starts a server in a directory of its own under {@code /tmp} (its user must reach it); {@code ignored} is not used. */
    public static TestPostgres start(Path ignored) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "grove-pg-");
        Path data = dir.resolve("pgdata");
        Files.createDirectories(data);
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            run(List.of("/usr/bin/chown", "-R", "postgres:postgres", dir.toString()), false);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        run(List.of(BIN.resolve("initdb").toString(), "-D", data.toString(), "-A", "trust", "-U", "grove", "--no-sync"), root);
        TestPostgres postgres = Ports.bind(1, ports -> {
            TestPostgres started = new TestPostgres(dir, data, ports[0]);
            try {
                started.resume();
            } catch (IOException e) {
                Path log = dir.resolve("pg.log");
                Ports.refuseIfTaken(Files.exists(log) ? Files.readString(log) : null);
                throw e;
            }
            return started;
        });
        try (var connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + postgres.port + "/postgres",
                "grove", "")) {
            connection.createStatement().execute("CREATE DATABASE grove");
        }
        return postgres;
    }

    /** Stops the server at once, as a crash would (its data stays). */
    public void crash() throws Exception {
        run(List.of(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"), root());
    }

    /** Starts the server (again) on its data and port. */
    public void resume() throws Exception {
        run(List.of(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("pg.log").toString(), "-w",
                "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"), root());
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/grove";
    }

    private static String run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("/usr/sbin/runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", full) + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        crash();
        run(List.of("/usr/bin/rm", "-rf", dir.toString()), false);
    }
}
