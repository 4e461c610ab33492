/**
 * Resource vectors in the fixed order {@code user_slots, cpu, gpu, memory, network}, shares of a
 * tree total, and the parser for resource amounts with units.
 */
package io.grove.core.resource;
