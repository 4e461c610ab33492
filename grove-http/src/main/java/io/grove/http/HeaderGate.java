package io.grove.http;

/**
 * Routes that can refuse a request on its head alone (method, path, headers), before its body is
 * read: an unauthenticated request never gets to send a megabyte.
 */
public interface HeaderGate {

    /**
     * The refusal of a request whose body is not read yet ({@code body} is empty), or {@code null}
     * to read the body and route it.
     */
    ApiException checkHead(ApiRequest head);

    /**
     * Whether a head that passed {@link #checkHead} proves its connection (an authenticated user):
     * such a connection is not shed to make room for others ({@link ConnectionLimiter}).
     */
    default boolean proves(ApiRequest head) {
        return true;
    }
}
