/**
 * Jobs in container images: the tools ({@code skopeo}, {@code umoci}, an OCI runtime), the node's
 * cache of images keyed by digest, pulls as tasks of the node's Resource Broker, and the OCI
 * bundle each image job runs from (docs/agent.md).
 */
package io.grove.agent.image;
