package io.grove.server.http;

import java.net.URI;

/** The log proxy's URI building, for tests outside the package. */
public final class JobRoutesAccess {

    private JobRoutesAccess() {
    }

    public static URI agentUri(String address, String path, String query) {
        return JobRoutes.agentUri(address, path, query);
    }
}
