/** The node endpoint: Netty, the protocol's frames, one session per connection, work handed to the loop. */
package io.grove.server.net;
