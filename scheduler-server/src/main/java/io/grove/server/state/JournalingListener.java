package io.grove.server.state;

import io.grove.core.operation.Job;
import io.grove.core.operation.RegistryListener;

/**
 * Journals every job start and end as the registry makes it (on the scheduler's thread, so in
 * order). Job events are not awaited, and have no sync of their own ({@link StateLog#record}): a job
 * that started but was not journaled before a crash is one the node reports and the revived
 * scheduler does not know, so it is aborted and retried.
 */
public final class JournalingListener implements RegistryListener {

    private final StateLog journal;

    public JournalingListener(StateLog journal) {
        this.journal = journal;
    }

    @Override
    public void jobStarted(Job job) {
        journal.record(Revival.started(job));
    }

    @Override
    public void jobEnded(Job job) {
        journal.record(new JournalEvent.JobEnded(job.id(), job.state(), job.endReason(), job.message(),
                job.finishTime().toEpochMilli(), job.preemptedFor()));
    }
}
