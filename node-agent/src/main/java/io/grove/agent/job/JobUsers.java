package io.grove.agent.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The unprivileged users jobs run as when the agent runs as root: one user for every job, or one
 * per slot (each running job gets a user no other running job has, so jobs cannot read each
 * other's sandboxes). Jobs never run as root.
 */
public final class JobUsers {

    /** A user a job runs as. */
    public record User(String name, int uid, int gid) {
    }

    private final List<User> users;
    private final Map<String, User> assigned = new HashMap<>();
    private int next;

    private JobUsers(List<User> users) {
        this.users = users;
    }

    /**
     * The users for this agent: none (jobs run as the agent's own user) when the agent is not root;
     * else the given names, {@code nobody} when none are given.
     *
     * @throws IOException if a user does not exist, or is root
     */
    public static JobUsers forAgent(List<String> names, boolean agentIsRoot, Path passwd) throws IOException {
        if (!agentIsRoot) {
            return new JobUsers(List.of());
        }
        Map<String, User> known = readPasswd(passwd);
        List<User> users = new ArrayList<>();
        for (String name : names.isEmpty() ? List.of("nobody") : names) {
            User user = known.get(name);
            if (user == null) {
                throw new IOException("job user '" + name + "' does not exist (see " + passwd + ")");
            }
            if (user.uid() == 0 || user.gid() == 0) {
                throw new IOException("job user '" + name + "' is root: jobs never run as root");
            }
            users.add(user);
        }
        return new JobUsers(List.copyOf(users));
    }

    /** Whether jobs switch users (the agent runs as root). */
    public boolean switching() {
        return !users.isEmpty();
    }

    public List<User> users() {
        return users;
    }

    /**
     * A user for a job: one no running job has, else (more jobs than users) the next in turn.
     * {@code null} when jobs do not switch users.
     */
    public User assign(String jobId) {
        if (users.isEmpty()) {
            return null;
        }
        for (int i = 0; i < users.size(); i++) {
            User candidate = users.get((next + i) % users.size());
            if (!assigned.containsValue(candidate)) {
                next = (next + i + 1) % users.size();
                assigned.put(jobId, candidate);
                return candidate;
            }
        }
        User shared = users.get(next);
        next = (next + 1) % users.size();
        assigned.put(jobId, shared);
        return shared;
    }

    public void release(String jobId) {
        assigned.remove(jobId);
    }

    /** Whether this process runs as root (from /proc/self/status). */
    public static boolean processIsRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0");
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no switching
        }
        return false;
    }

    static Map<String, User> readPasswd(Path passwd) throws IOException {
        Map<String, User> users = new LinkedHashMap<>();
        for (String line : Files.readAllLines(passwd)) {
            String[] fields = line.split(":");
            if (fields.length >= 4 && !line.startsWith("#")) {
                try {
                    users.put(fields[0], new User(fields[0], Integer.parseInt(fields[2]), Integer.parseInt(fields[3])));
                } catch (NumberFormatException e) {
                    // skip a malformed line
                }
            }
        }
        return users;
    }
}
