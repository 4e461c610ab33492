/** The loopback protocol of a node's Resource Broker, and the client co-located services use. */
package io.grove.protocol.broker;
