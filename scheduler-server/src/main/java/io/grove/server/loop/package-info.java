/** The single writer: one thread that owns the scheduler state and runs everything that changes it. */
package io.grove.server.loop;
