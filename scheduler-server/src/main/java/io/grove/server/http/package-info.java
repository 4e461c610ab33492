/** The HTTP API: Netty's HTTP codec, a small router, JSON views of operations, pools, nodes and config. */
package io.grove.server.http;
