package io.grove.core.operation;

/**
 * A pool configuration that would remove pools or trees still in use; nothing was changed. The
 * message names each pool or tree and the operations that use it.
 */
public final class ReloadRefusedException extends RuntimeException {

    public ReloadRefusedException(String message) {
        super(message);
    }
}
