package io.grove.server.state;

import io.grove.core.cluster.GangListener;
import io.grove.core.operation.Job;
import io.grove.core.operation.RegistryListener;
import io.grove.core.schedule.GangReservation;

/**
 * Journals every job start and end as the registry makes it (on the scheduler's thread, so in
 * order). Job events are not awaited, and have no sync of their own ({@link StateLog#record}): a job
 * that started but was not journaled before a crash is one the node reports and the revived
 * scheduler does not know, so it is aborted and retried. Gang reservations are journaled as they
 * are made and dropped, the same way: a reservation lost with a crash is made again once its gang
 * has starved for the tree's {@code gang_reservation_timeout} after the restart.
 */
public final class JournalingListener implements RegistryListener, GangListener {

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

    @Override
    public void reserved(GangReservation reservation) {
        journal.record(Revival.reserved(reservation));
    }

    @Override
    public void unreserved(GangReservation reservation, String why) {
        journal.record(new JournalEvent.GangUnreserved(reservation.tree(), reservation.operationId(),
                reservation.since().toEpochMilli()));
    }
}
