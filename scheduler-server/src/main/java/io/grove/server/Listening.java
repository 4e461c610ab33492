package io.grove.server;

import java.net.BindException;

/**
 * Opening a listening port: an address that cannot be taken (in use, or not this machine's) is an
 * error that names the port, what it is for and the option that chooses another, instead of the
 * socket layer's {@code bind(..) failed with error(-98)}.
 */
final class Listening {

    /** What opens the port. */
    interface Open<T> {
        T open() throws Exception;
    }

    private Listening() {
    }

    /**
     * Opens {@code what} (as "the API") on {@code host}:{@code port}, chosen by {@code option}.
     *
     * @throws SchedulerDaemon.DaemonException the address is taken or not this machine's
     */
    static <T> T on(String what, String host, int port, String option, Open<T> open) throws Exception {
        try {
            return open.open();
        } catch (Exception e) {
            String cause = bindFailure(e);
            if (cause == null) {
                throw e;
            }
            throw new SchedulerDaemon.DaemonException("cannot listen for " + what + " on " + host + ":" + port + ": "
                    + cause + "; choose another port with " + option, e);
        }
    }

    /** Why the bind failed, in words, or {@code null} when {@code e} is no bind failure. */
    static String bindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage() == null ? "" : t.getMessage();
            boolean bind = t instanceof BindException || message.startsWith("bind(..)");
            if (bind && (message.contains("in use") || message.contains("-98"))) {
                return "the address is in use (another Grove, or another program, listens there)";
            }
            if (bind && (message.contains("assign") || message.contains("-99"))) {
                return "the address is not one of this machine's";
            }
            if (bind) {
                return message;
            }
        }
        return null;
    }
}
