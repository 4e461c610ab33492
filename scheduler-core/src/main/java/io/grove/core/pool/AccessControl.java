package io.grove.core.pool;

import java.util.List;
import java.util.Map;

/**
 * Who may do what, from the pools file. Principals are user names, {@code group:NAME}, or
 * {@code *} (everyone).
 *
 * <ul>
 *   <li>{@code admins} (top level) administer the whole cluster: reload the configuration, read
 *       every job's logs, change every operation. When none are named, everyone is an admin (an
 *       open cluster, as in the quick start).
 *   <li>A pool's {@code acl.submit} says who may submit to it, {@code acl.administer} who may change
 *       its operations. Both are inherited down the tree: the nearest pool on the path to the root
 *       that sets one decides. With no {@code submit} rule on the path anyone may submit; with no
 *       {@code administer} rule only cluster admins administer.
 * </ul>
 *
 * @param admins the cluster's admins; empty means everyone
 * @param pools per tree, per pool, the rules it sets
 */
public record AccessControl(List<String> admins, Map<String, Map<String, PoolAccess>> pools) {

    /** Nothing restricted. */
    public static final AccessControl OPEN = new AccessControl(List.of(), Map.of());

    public AccessControl {
        admins = List.copyOf(admins);
        pools = Map.copyOf(pools);
    }

    /**
     * The rules one pool sets; {@code null} lists are inherited from its parent.
     *
     * @param submit who may submit to the pool and its subpools
     * @param administer who may change, abort and read the logs of their operations
     */
    public record PoolAccess(List<String> submit, List<String> administer) {
    }

    /** Someone making a request: a user and the groups they belong to. */
    public record Identity(String user, List<String> groups) {
        public Identity {
            groups = groups == null ? List.of() : List.copyOf(groups);
        }

        boolean matches(List<String> principals) {
            for (String principal : principals) {
                if (principal.equals("*") || principal.equals(user)
                        || (principal.startsWith("group:") && groups.contains(principal.substring(6)))) {
                    return true;
                }
            }
            return false;
        }
    }

    /** An answer with the rule that gave it, for refusals (403) and the audit log. */
    public record Decision(boolean allowed, String rule) {
    }

    public boolean isAdmin(Identity who) {
        return admins.isEmpty() || who.matches(admins);
    }

    /** Whether {@code who} may submit to the pool whose path is {@code path} (the pool first, then its ancestors). */
    public Decision maySubmit(String tree, List<String> path, Identity who) {
        Map<String, PoolAccess> rules = pools.getOrDefault(tree, Map.of());
        for (String pool : path) {
            PoolAccess access = rules.get(pool);
            if (access != null && access.submit() != null) {
                boolean allowed = who.matches(access.submit()) || isAdminListed(who);
                return new Decision(allowed, "pool \"" + pool + "\" in tree \"" + tree + "\" lets " + access.submit()
                        + " submit");
            }
        }
        return new Decision(true, "no submit rule on the path of pool \"" + path.get(0) + "\": open");
    }

    /** Whether {@code who} administers the pool whose path is {@code path}. */
    public Decision mayAdminister(String tree, List<String> path, Identity who) {
        if (isAdminListed(who)) {
            return new Decision(true, "cluster admin");
        }
        Map<String, PoolAccess> rules = pools.getOrDefault(tree, Map.of());
        for (String pool : path) {
            PoolAccess access = rules.get(pool);
            if (access != null && access.administer() != null) {
                return new Decision(who.matches(access.administer()), "pool \"" + pool + "\" in tree \"" + tree
                        + "\" is administered by " + access.administer());
            }
        }
        return new Decision(admins.isEmpty(), admins.isEmpty() ? "no admins configured: open"
                : "only the cluster admins " + admins + " administer pool \"" + path.get(0) + "\"");
    }

    private boolean isAdminListed(Identity who) {
        return !admins.isEmpty() && who.matches(admins);
    }
}
