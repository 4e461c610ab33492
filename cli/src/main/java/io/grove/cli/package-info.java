/** The {@code grove} command line: daemons, user and admin commands, what-if tools. */
package io.grove.cli;
