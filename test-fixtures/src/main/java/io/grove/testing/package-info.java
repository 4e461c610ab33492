/**
 * What every module's tests share: {@link io.grove.testing.Await}, the one way a test waits for a
 * condition (never a bare sleep), and {@link io.grove.testing.Ports}, which starts a server on
 * ports it chose and chooses again when one was taken meanwhile.
 */
package io.grove.testing;
