/** How commands reach the scheduler and agents: target resolution, the HTTP client, exit codes. */
package io.grove.cli.client;
