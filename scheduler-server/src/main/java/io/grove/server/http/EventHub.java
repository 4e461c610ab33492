package io.grove.server.http;

import io.grove.api.StateEvent;
import io.grove.core.operation.Job;
import io.grove.http.ApiException;
import io.grove.http.EventStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The changes of operations and jobs, numbered, for {@code GET /api/v1/events}: the last
 * {@link #KEPT} are kept so that a client that reconnects with {@code Last-Event-ID} misses none;
 * one that asks from further back is told to read the state again ({@code event: reset}). Published
 * on the scheduler's thread; each stream hears only what its filter takes, and sees a job's output
 * (the tail of its stderr in a failure's message) only where its reader may read it in the views,
 * replayed events included ({@link Reader}). At most {@link #MAX_STREAMS} streams are open, at most
 * {@link #MAX_STREAMS_PER_USER} of one user.
 */
public final class EventHub {

    /** How many events are kept for clients that reconnect. */
    public static final int KEPT = 10_000;

    /** How many streams may be open at once. */
    public static final int MAX_STREAMS = 256;

    /** How many streams one user may hold open at once. */
    public static final int MAX_STREAMS_PER_USER = 16;

    /** Who reads a stream: their name, and whether they may read what a job of the event's operation printed. */
    public interface Reader {
        String user();

        /** As the views decide it: its owner, its pools' administrators, the cluster admins. */
        boolean mayReadOutput(String owner, Map<String, List<String>> placements);
    }

    /**
     * What happened, as the scheduler's thread says it: the event's fields as the operation and
     * the job hold them ({@code job}: {@code null} for an operation's event), its time not yet
     * written out. {@code placements}: its operation's pool per tree as the path up to the root,
     * the first tree first, shared by every event of the operation and not changed after.
     */
    public record Said(String type, String operationId, Job job, String state, String user, String pool,
            String node, String reason, String message, Instant at, Map<String, List<String>> placements) {
    }

    /** What a stream wants: one operation, or one pool and the pools below it ({@code null}: all). */
    public record Filter(String operation, String pool) {
        boolean takes(KeptEvent event) {
            return (operation == null || operation.equals(event.operationId()))
                    && (pool == null || event.poolPath().contains(pool));
        }
    }

    /** The last {@link #KEPT} events: event {@code n} at {@code (n - 1) % KEPT}. */
    private final KeptEvent[] kept = new KeptEvent[KEPT];
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    /** The next event's number. */
    private long next = 1;

    private record Subscriber(Filter filter, Reader reader, Consumer<String> sink) {
    }

    /** Numbers an event and sends it to the streams that want it. */
    public synchronized void publish(Said said) {
        long id = next++;
        int at = (int) ((id - 1) % KEPT);
        if (kept[at] == null) {
            kept[at] = new KeptEvent();
        }
        KeptEvent event = kept[at];
        event.set(id, said);
        // under the lock: a stream opening meanwhile gets each event once, replayed or sent
        for (Subscriber subscriber : subscribers) {
            if (subscriber.filter().takes(event)) {
                subscriber.sink().accept(event.frame(subscriber.reader()));
            }
        }
    }

    /** The oldest event kept (the next one while none is). */
    private long oldest() {
        return Math.max(1, next - KEPT);
    }

    private KeptEvent kept(long id) {
        return kept[(int) ((id - 1) % KEPT)];
    }

    /** The stream of {@code filter}'s events after {@code lastEventId} ({@code null}: from now on), as {@code reader} may see them. */
    public EventStream stream(Filter filter, Reader reader, Long lastEventId) {
        return sink -> {
            Subscriber subscriber = new Subscriber(filter, reader, sink);
            synchronized (this) {
                refuseBeyondBounds(reader.user());
                sink.accept("retry: 2000\n\n");
                if (lastEventId != null) {
                    if (lastEventId < oldest() - 1 || lastEventId >= next) {
                        sink.accept("event: reset\ndata: {\"message\": \"events after " + lastEventId + " are no longer "
                                + "kept: read the state again\"}\n\n");
                    } else {
                        for (long id = lastEventId + 1; id < next; id++) {
                            if (filter.takes(kept(id))) {
                                sink.accept(kept(id).frame(reader));
                            }
                        }
                    }
                }
                subscribers.add(subscriber);
            }
            return () -> subscribers.remove(subscriber);
        };
    }

    /** Streams open now. */
    public int streams() {
        return subscribers.size();
    }

    /**
     * Refuses a stream beyond {@link #MAX_STREAMS} in all or {@link #MAX_STREAMS_PER_USER} of
     * {@code user}'s (503, with how many are open).
     */
    synchronized void refuseBeyondBounds(String user) {
        if (subscribers.size() >= MAX_STREAMS) {
            throw new ApiException(503, "TOO_BUSY", MAX_STREAMS + " event streams are open; try again later");
        }
        long own = subscribers.stream().filter(s -> s.reader().user().equals(user)).count();
        if (own >= MAX_STREAMS_PER_USER) {
            throw new ApiException(429, "TOO_MANY_STREAMS", "user " + user + " has " + own
                    + " event streams open, the most one user may; close one (a stream can follow several operations "
                    + "through ?pool=) and try again");
        }
    }

    /** The events kept now (for tests and the document's examples). */
    synchronized List<StateEvent> kept() {
        List<StateEvent> out = new ArrayList<>();
        for (long id = oldest(); id < next; id++) {
            out.add(kept(id).event());
        }
        return out;
    }
}
