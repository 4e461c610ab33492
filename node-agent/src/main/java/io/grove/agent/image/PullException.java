package io.grove.agent.image;

import java.io.IOException;

/** A pull that failed, with what a user should read (the job fails with it). */
public final class PullException extends IOException {

    private static final long serialVersionUID = 1L;

    public PullException(String message) {
        super(message);
    }
}
