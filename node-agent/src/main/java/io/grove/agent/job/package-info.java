/** Job processes: starting them as process groups, signalling them, measuring them through /proc. */
package io.grove.agent.job;
