/**
 * The HTTP server of both daemons (the scheduler's API and the node agent's endpoint): a Netty
 * bootstrap with connection caps per address, header and body deadlines and size limits
 * ({@link io.grove.http.HttpLimits}), requests refused on their head before any body is read
 * ({@link io.grove.http.HeaderGate}), typed errors rendered as the documented JSON
 * ({@link io.grove.http.ApiException}), and bearer-token handling ({@link io.grove.http.Secrets}).
 * It knows nothing of scheduling: routes are given to it.
 */
package io.grove.http;
