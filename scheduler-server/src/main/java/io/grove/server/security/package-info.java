/** Authentication of users and nodes, and the audit log. */
package io.grove.server.security;
