package io.grove.cli.client;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Where the scheduler is and who the user is. The scheduler: {@code --scheduler URL}, else
 * {@code GROVE_SCHEDULER}, else {@code scheduler:} in the user's config file
 * ({@code $XDG_CONFIG_HOME/grove/config.yaml}, by default {@code ~/.config/grove/config.yaml}), else
 * {@code http://127.0.0.1:8080}. The user: {@code --user}, else {@code user:} in that file, else the
 * login name. The token: {@code GROVE_TOKEN}, else {@code token:} in that file, else what
 * {@code token_command:} in that file prints (run with {@code /bin/sh -c} at each command, as
 * kubectl's exec credentials: a command of the identity provider's that prints a fresh JWT).
 *
 * @param scheduler the scheduler's base URL, without a trailing slash
 * @param user who the requests are made for
 * @param source where the scheduler's URL came from, for messages
 * @param token the bearer token ({@code GROVE_TOKEN}, else {@code token:} in the config file), or {@code null}
 * @param group every scheduler of a high-availability group, the first one first (comma-separated
 *     URLs where one is given): the command tries them in turn and follows a standby to the leader
 *     only when the leader is one of them (the token goes to these and no other)
 */
public record Target(URI scheduler, String user, String source, String token, List<URI> group) {

    public Target {
        group = group == null || group.isEmpty() ? List.of(scheduler) : List.copyOf(group);
    }

    public Target(URI scheduler, String user, String source) {
        this(scheduler, user, source, null);
    }

    public Target(URI scheduler, String user, String source, String token) {
        this(scheduler, user, source, token, List.of(scheduler));
    }

    public static final String DEFAULT_SCHEDULER = "http://127.0.0.1:8080";

    public static Target resolve(String schedulerFlag, String userFlag, Map<String, String> env, String loginName)
            throws CliException {
        Map<?, ?> file = configFile(env);
        String scheduler;
        String source;
        if (schedulerFlag != null) {
            scheduler = schedulerFlag;
            source = "--scheduler";
        } else if (env.get("GROVE_SCHEDULER") != null && !env.get("GROVE_SCHEDULER").isBlank()) {
            scheduler = env.get("GROVE_SCHEDULER");
            source = "GROVE_SCHEDULER";
        } else if (file.get("scheduler") != null) {
            scheduler = String.valueOf(file.get("scheduler"));
            source = configPath(env).toString();
        } else {
            scheduler = DEFAULT_SCHEDULER;
            source = "the default";
        }
        String user = userFlag != null ? userFlag : file.get("user") != null ? String.valueOf(file.get("user")) : loginName;
        String token = env.get("GROVE_TOKEN") != null && !env.get("GROVE_TOKEN").isBlank() ? env.get("GROVE_TOKEN").strip()
                : file.get("token") != null ? String.valueOf(file.get("token"))
                : file.get("token_command") != null ? TokenCommand.run(String.valueOf(file.get("token_command")),
                        configPath(env)) : null;
        List<URI> group = new ArrayList<>();
        for (String one : scheduler.split(",")) {
            group.add(parse(one.strip(), source));
        }
        return new Target(group.get(0), user, source, token, group);
    }

    static URI parse(String text, String source) throws CliException {
        String url = text.contains("://") ? text : "http://" + text;
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        try {
            URI uri = URI.create(url);
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("no host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCodes.USAGE, "the scheduler URL '" + text + "' (from " + source + ") is not valid: "
                    + e.getMessage());
        }
    }

    static Path configPath(Map<String, String> env) {
        String xdg = env.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(env.getOrDefault("HOME", "."), ".config");
        return base.resolve("grove").resolve("config.yaml");
    }

    private static Map<?, ?> configFile(Map<String, String> env) throws CliException {
        Path path = configPath(env);
        if (!Files.isRegularFile(path)) {
            return Map.of();
        }
        try (Reader reader = Files.newBufferedReader(path)) {
            Object value = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
            if (value == null) {
                return Map.of();
            }
            if (!(value instanceof Map<?, ?> map)) {
                throw new CliException(ExitCodes.USAGE, path + ": expected a mapping such as 'scheduler: http://host:8080'");
            }
            return map;
        } catch (IOException | RuntimeException e) {
            throw new CliException(ExitCodes.USAGE, path + ": " + e.getMessage());
        }
    }
}
