package io.grove.core.operation;

import io.grove.core.pool.EphemeralSubpoolConfig;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTimeLimits;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.SchedulingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The pools of one tree as operations see them: the configured pools plus the ephemeral ones made
 * on demand (see docs/scheduling.md#operation-count-limits): {@code <user>} under the tree's {@code default_parent_pool} for an
 * operation without a pool, and {@code <pool>$<user>} under a pool with
 * {@code create_ephemeral_subpools}. Answers parents and effective count limits.
 */
public final class TreePools {

    /** Names allowed for ephemeral pools (the user part). */
    static final Pattern EPHEMERAL_NAME = Pattern.compile("[-_a-z0-9:A-Z]+");

    /** An ephemeral pool and the user it was made for. */
    record EphemeralPool(String name, String parent, String user, PoolConfig config) {
    }

    private PoolTreeConfig base;
    private PoolTree shape;
    private final Map<String, EphemeralPool> ephemeral = new LinkedHashMap<>();
    private PoolTreeConfig effective;

    public TreePools(PoolTreeConfig config) {
        reconfigure(config);
    }

    /**
     * Takes a new configuration. Ephemeral pools stay (their parents are in use, so the registry
     * has checked they exist); one that is now configured becomes a configured pool.
     */
    void reconfigure(PoolTreeConfig config) {
        this.base = config;
        this.shape = PoolTree.of(config);
        ephemeral.keySet().removeIf(shape::contains);
        effective = null;
    }

    public String name() {
        return base.name();
    }

    /** The configuration with the ephemeral pools in place; what the fair-share update gets. */
    public PoolTreeConfig effectiveConfig() {
        if (effective == null) {
            effective = ephemeral.isEmpty() ? base : base.withPools(withEphemeral(base.pools(), PoolTreeConfig.ROOT));
        }
        return effective;
    }

    private List<PoolConfig> withEphemeral(List<PoolConfig> pools, String parent) {
        List<PoolConfig> out = new ArrayList<>(pools.size());
        for (PoolConfig pool : pools) {
            out.add(pool.withChildren(withEphemeral(pool.children(), pool.name())));
        }
        for (EphemeralPool pool : ephemeral.values()) {
            if (pool.parent().equals(parent)) {
                out.add(pool.config());
            }
        }
        return out;
    }

    /**
     * A candidate configuration with this tree's ephemeral pools in place (those it does not
     * configure itself and whose parent it has): what a fair-share update would get if the
     * candidate were applied.
     */
    public PoolTreeConfig effectiveConfig(PoolTreeConfig candidate) {
        PoolTree candidateShape = PoolTree.of(candidate);
        List<EphemeralPool> kept = new ArrayList<>();
        for (EphemeralPool pool : ephemeral.values()) {
            if (!candidateShape.contains(pool.name())
                    && (pool.parent().equals(PoolTreeConfig.ROOT) || candidateShape.contains(pool.parent()))) {
                kept.add(pool);
            }
        }
        return kept.isEmpty() ? candidate : candidate.withPools(graft(candidate.pools(), PoolTreeConfig.ROOT, kept));
    }

    private static List<PoolConfig> graft(List<PoolConfig> pools, String parent, List<EphemeralPool> kept) {
        List<PoolConfig> out = new ArrayList<>(pools.size());
        for (PoolConfig pool : pools) {
            out.add(pool.withChildren(graft(pool.children(), pool.name(), kept)));
        }
        for (EphemeralPool pool : kept) {
            if (pool.parent().equals(parent)) {
                out.add(pool.config());
            }
        }
        return out;
    }

    public boolean contains(String pool) {
        return shape.contains(pool) || ephemeral.containsKey(pool);
    }

    public boolean isEphemeral(String pool) {
        return ephemeral.containsKey(pool);
    }

    /** The user an ephemeral pool was made for; {@code null} for a configured pool or none. */
    public String ephemeralOwner(String pool) {
        EphemeralPool eph = ephemeral.get(pool);
        return eph == null ? null : eph.user();
    }

    /** Whether the pool is one of the configuration's own (not ephemeral). */
    public boolean isConfigured(String pool) {
        return shape.contains(pool);
    }

    /** The pool's parent, or {@code null} for the root. */
    public String parentOf(String pool) {
        if (PoolTreeConfig.ROOT.equals(pool)) {
            return null;
        }
        EphemeralPool eph = ephemeral.get(pool);
        if (eph != null) {
            return eph.parent();
        }
        return shape.pool(pool).map(PoolTree.Node::parent)
                .orElseThrow(() -> new IllegalArgumentException("no pool '" + pool + "' in tree " + name()));
    }

    /** The pool's configuration, {@code null} for the root. */
    public PoolConfig configOf(String pool) {
        if (PoolTreeConfig.ROOT.equals(pool)) {
            return null;
        }
        EphemeralPool eph = ephemeral.get(pool);
        return eph != null ? eph.config() : shape.pool(pool).map(PoolTree.Node::config).orElse(null);
    }

    /** The pool, its ancestors and the root, nearest first. */
    public List<String> pathToRoot(String pool) {
        List<String> path = new ArrayList<>(6);
        for (String at = pool; at != null; at = parentOf(at)) {
            path.add(at);
        }
        return path;
    }

    /**
     * The time limits in force where a placement puts an operation: its pool's own and its
     * ancestors' ({@link PoolTimeLimits#along}); an ephemeral pool not made yet has none of its own.
     */
    public PoolTimeLimits timeLimits(Placement placement) {
        String from = contains(placement.pool()) ? placement.pool() : placement.ephemeralParent();
        List<PoolTimeLimits> path = new ArrayList<>();
        for (String pool : pathToRoot(from)) {
            PoolConfig config = configOf(pool);
            path.add(config == null ? PoolTimeLimits.NONE : config.timeLimits());
        }
        return PoolTimeLimits.along(path);
    }

    public int maxOperationCount(String pool) {
        PoolConfig config = configOf(pool);
        if (config == null) {
            return base.counts().maxOperationCount();
        }
        return config.maxOperationCount() != null ? config.maxOperationCount() : base.counts().maxOperationCountPerPool();
    }

    public int maxRunningOperationCount(String pool) {
        PoolConfig config = configOf(pool);
        if (config == null) {
            return base.counts().maxRunningOperationCount();
        }
        return config.maxRunningOperationCount() != null ? config.maxRunningOperationCount()
                : base.counts().maxRunningOperationCountPerPool();
    }

    /** A vanilla operation in a FIFO pool with {@code enable_lightweight_operations}. */
    public boolean isLightweight(OperationType type, String pool) {
        PoolConfig config = configOf(pool);
        return type == OperationType.VANILLA && config != null && config.enableLightweightOperations()
                && config.mode() == SchedulingMode.FIFO;
    }

    private String defaultParent() {
        String parent = base.defaultParentPool();
        return shape.contains(parent) ? parent : PoolTreeConfig.ROOT;
    }

    /**
     * Where an operation of {@code user} asking for {@code requested} (or {@code null}) goes; the
     * answer may be an ephemeral pool that does not exist yet ({@link #ensure} makes it).
     *
     * @throws SubmitException for an unknown pool, a forbidden one, or a bad user name
     */
    public Placement resolve(String requested, String user) {
        return resolve(requested, user, false);
    }

    /**
     * As {@link #resolve(String, String)}; when {@code restoring} an operation that was accepted
     * before (a journal replay), nothing refuses it: a pool that no longer exists is made again as
     * an ephemeral pool under the default parent, and another user's ephemeral pool is allowed.
     */
    public Placement resolve(String requested, String user, boolean restoring) {
        if (restoring && requested != null && !PoolTreeConfig.ROOT.equals(requested) && !shape.contains(requested)) {
            EphemeralPool existing = ephemeral.get(requested);
            return existing != null ? new Placement(requested, null, null, user)
                    : new Placement(requested, defaultParent(), EphemeralSubpoolConfig.DEFAULT, user);
        }
        if (requested == null) {
            if (shape.contains(user) && !PoolTreeConfig.ROOT.equals(user)) {
                return checkImmediate(new Placement(user, null, null, user));
            }
            checkEphemeralName(user);
            return new Placement(user, defaultParent(), EphemeralSubpoolConfig.DEFAULT, user);
        }
        if (PoolTreeConfig.ROOT.equals(requested)) {
            if (base.counts().forbidImmediateOperationsInRoot()) {
                throw new SubmitException(SubmitError.FORBIDDEN_IMMEDIATE_OPERATIONS,
                        "Starting operations immediately in the root of tree \"" + name() + "\" is forbidden",
                        Map.of("pool", requested, "pool_tree", name()));
            }
            return new Placement(requested, null, null, user);
        }
        EphemeralPool existing = ephemeral.get(requested);
        if (existing != null) {
            if (!existing.user().equals(user)) {
                throw new SubmitException(SubmitError.FOREIGN_EPHEMERAL_POOL, "Pool \"" + requested
                        + "\" is the ephemeral pool of user \"" + existing.user() + "\"; only its user submits into it",
                        Map.of("pool", requested, "pool_tree", name(), "owner", existing.user()));
            }
            return new Placement(requested, null, null, user);
        }
        PoolConfig config = shape.pool(requested).map(PoolTree.Node::config).orElseThrow(() -> new SubmitException(
                SubmitError.UNKNOWN_POOL, "Pool \"" + requested + "\" does not exist in tree \"" + name() + "\"",
                Map.of("pool", requested, "pool_tree", name())));
        if (config.createEphemeralSubpools()) {
            checkEphemeralName(user);
            EphemeralSubpoolConfig sub = config.ephemeralSubpoolConfig() == null
                    ? EphemeralSubpoolConfig.DEFAULT : config.ephemeralSubpoolConfig();
            return new Placement(requested + "$" + user, requested, sub, user);
        }
        return checkImmediate(new Placement(requested, null, null, user));
    }

    private Placement checkImmediate(Placement placement) {
        PoolConfig config = configOf(placement.pool());
        if (config != null && config.forbidImmediateOperations()) {
            throw new SubmitException(SubmitError.FORBIDDEN_IMMEDIATE_OPERATIONS,
                    "Starting operations immediately in pool \"" + placement.pool() + "\" is forbidden",
                    Map.of("pool", placement.pool(), "pool_tree", name()));
        }
        return placement;
    }

    private void checkEphemeralName(String user) {
        if (user == null || !EPHEMERAL_NAME.matcher(user).matches()) {
            throw new SubmitException(SubmitError.INVALID_SPEC, "User name \"" + user
                    + "\" cannot name an ephemeral pool: it must match " + EPHEMERAL_NAME.pattern());
        }
    }

    /** Makes the placement's ephemeral pool if it is missing (after {@link #checkEphemeralLimit}). */
    void ensure(Placement placement, boolean enforceLimit) {
        if (placement.ephemeralParent() == null || ephemeral.containsKey(placement.pool())) {
            return;
        }
        if (enforceLimit) {
            checkEphemeralLimit(placement);
        }
        ephemeral.put(placement.pool(), new EphemeralPool(placement.pool(), placement.ephemeralParent(),
                placement.user(), PoolConfig.ephemeral(placement.pool(), placement.ephemeralConfig())));
        effective = null;
    }

    /**
     * Refuses a placement that would make one ephemeral pool too many for its user.
     *
     * @throws SubmitException when the user is at {@code max_ephemeral_pools_per_user}
     */
    void checkEphemeralLimit(Placement placement) {
        if (placement.ephemeralParent() == null || ephemeral.containsKey(placement.pool())) {
            return;
        }
        // As in the reference, the limit counts the user's own pools under the default parent, not <pool>$<user>.
        boolean userPool = placement.pool().equals(placement.user());
        long owned = ephemeral.values().stream().filter(p -> p.name().equals(p.user()) && p.user().equals(placement.user())).count();
        int limit = base.counts().maxEphemeralPoolsPerUser();
        if (userPool && owned >= limit) {
            throw new SubmitException(SubmitError.TOO_MANY_EPHEMERAL_POOLS, "Cannot create new ephemeral pool \""
                    + placement.pool() + "\" in tree \"" + name() + "\": the limit of " + limit
                    + " ephemeral pools per user has been reached for user \"" + placement.user() + "\"",
                    Map.of("pool", placement.pool(), "pool_tree", name(), "limit", limit, "user", placement.user()));
        }
    }

    /** Removes an ephemeral pool once nothing uses it. */
    void release(String pool) {
        if (ephemeral.remove(pool) != null) {
            effective = null;
        }
    }

    /**
     * Where an operation goes in one tree.
     *
     * @param pool the pool's name
     * @param ephemeralParent the parent to create it under, or {@code null} if it exists or is not ephemeral
     * @param ephemeralConfig its configuration when it is made
     * @param user the operation's owner
     */
    public record Placement(String pool, String ephemeralParent, EphemeralSubpoolConfig ephemeralConfig, String user) {
    }
}
