/**
 * The node protocol: length-prefixed JSON frames carrying a handshake, heartbeats and their
 * replies, and typed errors (documented in {@code docs/protocol.md}); the Netty codec that bounds
 * and checks every frame, and a client for agents and load drivers.
 */
package io.grove.protocol;
