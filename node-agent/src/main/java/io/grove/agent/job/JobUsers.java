package io.grove.agent.job;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The unprivileged identities jobs run as when the agent runs as root. By default every running
 * job gets a uid of its own from a numeric range ({@code --job-uids}, 20000-20999), with a group of
 * the same number and no passwd entry, as YARN's and Kubernetes' per-container users: no job can
 * read another's files or {@code /proc/PID/environ}, or signal its processes, and when a job ends
 * every process left with its uid is killed before the uid is given to another job. Named users
 * ({@code --job-users}) are shared by every job that runs as them, and the agent warns about it.
 * Jobs never run as root.
 */
public final class JobUsers {

    private static final Logger LOG = LoggerFactory.getLogger(JobUsers.class);

    /** The default range of job uids. */
    public static final String DEFAULT_UIDS = "20000-20999";

    /** A user a job runs as. */
    public record User(String name, int uid, int gid) {
        /** The user of a uid of a range: no account, a group of the same number. */
        static User ofRange(int uid) {
            return new User("grove-" + uid, uid, uid);
        }
    }

    /** Where agents of one machine lease job uids, so that agents sharing a range never share a uid. */
    public static final Path LEASES = Path.of("/run/grove/job-uids");

    private final List<User> users;
    /** Whether each running job has its uid to itself (a uid range), or users are shared (named users). */
    private final boolean exclusive;
    private final Map<String, User> assigned = new HashMap<>();
    private UidLeases leases;
    private int next;

    private JobUsers(List<User> users, boolean exclusive) {
        this.users = users;
        this.exclusive = exclusive;
    }

    /**
     * Leases uids machine-wide in {@code dir} ({@link UidLeases}), so agents that share a uid range
     * on one machine — {@code grove local}'s, or several agents' — never give one uid to two jobs,
     * and no uid is given again while files of its last job may remain, even across restarts.
     *
     * @param owner this agent, as its work directory's absolute path
     * @param hasFiles whether a job of this agent still has files on the node
     */
    public JobUsers leasingIn(Path dir, String owner, Predicate<String> hasFiles) throws IOException {
        if (exclusive) {
            this.leases = new UidLeases(dir, owner, hasFiles);
            this.next = Math.floorMod(leases.cursor(), users.size());
        }
        return this;
    }

    /**
     * After an agent restart: the uids of this agent's jobs whose files remain stay theirs until
     * the files are gone ({@link #release}).
     *
     * @return how many were taken back
     */
    public int adoptLeases() throws IOException {
        if (leases == null) {
            return 0;
        }
        Map<String, Integer> adopted = leases.adopt();
        for (Map.Entry<String, Integer> lease : adopted.entrySet()) {
            users.stream().filter(u -> u.uid() == lease.getValue()).findFirst()
                    .ifPresent(user -> assigned.put(lease.getKey(), user));
        }
        return adopted.size();
    }

    /**
     * Frees the uids leased to jobs of agents that are gone with their work directories (a work
     * directory removed while its agent was down): {@code empty} is given each such job's user and
     * must leave nothing of it (its processes killed, its sandbox removed) before its uid is free.
     *
     * @return how many uids were freed
     */
    public int sweepOrphanLeases(OrphanEmptier empty) throws IOException {
        if (leases == null) {
            return 0;
        }
        return leases.sweepOrphans(orphan -> empty.empty(User.ofRange(orphan.uid()),
                orphan.owner(), orphan.jobId())).size();
    }

    /** Empties what a job of a gone agent left: {@code owner} is the agent's work directory, as its leases name it. */
    public interface OrphanEmptier {
        void empty(User user, String owner, String jobId) throws IOException;
    }

    /** No switching: jobs run as the agent's own user (an agent that is not root). */
    public static JobUsers none() {
        return new JobUsers(List.of(), false);
    }

    /**
     * The identities for this agent: none (jobs run as the agent's own user) when the agent is not
     * root; else the named users if any are given, else a uid of its own for each running job from
     * {@code uidRange} ({@value #DEFAULT_UIDS} when {@code null}).
     *
     * @throws IOException if a named user does not exist or is root, the range is malformed,
     *     contains 0, or holds the uid of an account in {@code passwd} (jobs would own its files)
     */
    public static JobUsers forAgent(List<String> names, String uidRange, boolean agentIsRoot, Path passwd)
            throws IOException {
        if (!agentIsRoot) {
            return none();
        }
        Map<String, User> known = readPasswd(passwd);
        if (!names.isEmpty()) {
            if (uidRange != null) {
                throw new IOException("give either job users or a job uid range, not both");
            }
            return named(names, known);
        }
        return range(uidRange == null ? DEFAULT_UIDS : uidRange, known, passwd);
    }

    private static JobUsers named(List<String> names, Map<String, User> known) throws IOException {
        List<User> users = new ArrayList<>();
        for (String name : names) {
            User user = known.get(name);
            if (user == null) {
                throw new IOException("job user '" + name + "' does not exist (see /etc/passwd)");
            }
            if (user.uid() == 0 || user.gid() == 0) {
                throw new IOException("job user '" + name + "' is root: jobs never run as root");
            }
            users.add(user);
        }
        LOG.warn("jobs run as the named user(s) {}: jobs that run as the same user at once can read each other's "
                + "files and environment and signal each other; a uid range (--job-uids) gives each job its own", names);
        return new JobUsers(List.copyOf(users), false);
    }

    private static JobUsers range(String text, Map<String, User> known, Path passwd) throws IOException {
        String[] bounds = text.trim().split("-", -1);
        long low;
        long high;
        try {
            if (bounds.length != 2) {
                throw new NumberFormatException();
            }
            low = Long.parseLong(bounds[0].trim());
            high = Long.parseLong(bounds[1].trim());
        } catch (NumberFormatException e) {
            throw new IOException("job uids must be a range LOW-HIGH such as " + DEFAULT_UIDS + ", got '" + text + "'");
        }
        if (low < 1 || high < low || high >= Integer.MAX_VALUE || high - low >= 65_536) {
            throw new IOException("job uids " + text + ": the range must be within 1.." + (Integer.MAX_VALUE - 1)
                    + ", low before high, at most 65536 uids; jobs never run as root (uid 0)");
        }
        for (User user : known.values()) {
            if (user.uid() >= low && user.uid() <= high) {
                throw new IOException("job uids " + text + " include uid " + user.uid() + " of the account '"
                        + user.name() + "' in " + passwd + ": jobs would own its files; pick a range no account uses");
            }
        }
        List<User> users = new ArrayList<>();
        for (long uid = low; uid <= high; uid++) {
            users.add(User.ofRange((int) uid));
        }
        return new JobUsers(List.copyOf(users), true);
    }

    /** Whether jobs switch users (the agent runs as root). */
    public boolean switching() {
        return !users.isEmpty();
    }

    /**
     * Whether each running job has a uid no other running job has: then every process with that
     * uid belongs to the job, and all of them are killed when it ends.
     */
    public boolean exclusive() {
        return exclusive;
    }

    public List<User> users() {
        return users;
    }

    /** How the identities are described in logs and the node view. */
    public String describe() {
        if (!switching()) {
            return "the agent's own user";
        }
        return exclusive ? "a uid of their own from " + users.get(0).uid() + "-" + users.get(users.size() - 1).uid()
                : "the shared user(s) " + users.stream().map(User::name).toList();
    }

    /**
     * A user for a job: one no running job has; with named users, when there are more jobs than
     * users, the next in turn. {@code null} when jobs do not switch users.
     *
     * @throws IOException when every uid of the range is taken by a running job
     */
    public User assign(String jobId) throws IOException {
        if (users.isEmpty()) {
            return null;
        }
        for (int i = 0; i < users.size(); i++) {
            User candidate = users.get((next + i) % users.size());
            if (!assigned.containsValue(candidate) && (leases == null || !exclusive || leases.take(jobId, candidate.uid()))) {
                next = (next + i + 1) % users.size();
                if (leases != null) {
                    leases.cursor(next);
                }
                assigned.put(jobId, candidate);
                return candidate;
            }
        }
        if (exclusive) {
            throw new IOException("every one of the " + users.size() + " job uids is taken by a running job, or by files "
                    + "of an ended one not removed yet" + (leases == null ? "" : " (of this agent or another on this machine)"));
        }
        User shared = users.get(next);
        next = (next + 1) % users.size();
        assigned.put(jobId, shared);
        return shared;
    }

    /** The user a running job was given, or {@code null}. */
    public User of(String jobId) {
        return assigned.get(jobId);
    }

    /**
     * Gives a job's user back: with a uid of its own, call it once everything the job left is gone
     * (its sandbox removed); a shared user at once when the job ends.
     */
    public void release(String jobId) {
        assigned.remove(jobId);
        if (leases != null) {
            leases.release(jobId);
        }
    }

    /**
     * The agent stops: the locks of its leases are let go, while their files keep naming its jobs
     * (as a crash leaves them), so that its next run takes back those whose files remain.
     */
    public void closeLeases() {
        if (leases != null) {
            leases.close();
        }
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
