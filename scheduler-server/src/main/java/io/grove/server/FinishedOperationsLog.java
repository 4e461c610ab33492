package io.grove.server;

import io.grove.core.operation.Operation;
import io.grove.core.operation.RegistryListener;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs each operation that finished, with its final message: the daemon's own record of what ended. */
final class FinishedOperationsLog implements RegistryListener {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerDaemon.class);

    @Override
    public void operationFinished(Operation operation) {
        LOG.info("operation {} {}{}", operation.id(), operation.state().name().toLowerCase(Locale.ROOT),
                operation.finalMessage() == null ? "" : ": " + operation.finalMessage());
    }
}
