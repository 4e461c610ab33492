/**
 * The shape of pool trees: configuration records with reference defaults, the built tree with
 * paths and parents, and validation that reports every problem with its pool path.
 */
package io.grove.core.pool;
