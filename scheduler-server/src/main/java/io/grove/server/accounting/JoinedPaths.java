package io.grove.server.accounting;

import io.grove.core.accounting.JobRecord;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The joined paths ({@code a/b/c}) of the pools the writer's records name, kept by the path list
 * itself: every job of an operation hands over the one list its operation keeps
 * ({@code OperationRegistry.pathsToRoot}), so a path is joined once per operation and tree instead
 * of once per record. One thread's (the writer's); forgotten whole past {@value #MAX} paths.
 */
final class JoinedPaths {

    static final int MAX = 4096;

    private final Map<List<String>, String> joined = new IdentityHashMap<>();

    /** The joined path of {@code toRoot}. */
    String of(List<String> toRoot) {
        String path = joined.get(toRoot);
        if (path == null) {
            if (joined.size() >= MAX) {
                joined.clear();
            }
            path = JobRecord.joinedPath(toRoot);
            joined.put(toRoot, path);
        }
        return path;
    }
}
