/**
 * The API's model: one record per request and response body of the scheduler's API and the
 * agent's endpoint ({@code docs/api.md}, {@code docs/agent.md}), written and read with
 * {@link io.grove.api.ApiJson}'s one snake_case mapper. The daemons build these records and the
 * command line reads them; a field is added by adding a component to its record.
 */
package io.grove.api;
