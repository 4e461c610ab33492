package io.grove.server.http;

import io.grove.api.ApiJson;
import io.grove.api.StateEvent;
import io.grove.core.cluster.Cluster;
import io.grove.core.operation.Operation;
import io.grove.core.operation.TreePools;
import io.grove.http.ApiException;
import io.grove.http.EventStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
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

    /** An event with its number and what filters match; its frames are written when first sent. */
    static final class Numbered {
        final long id;
        final StateEvent event;
        final List<String> poolPath;
        /** The operation's pool in each of its trees, as the path from it to the root. */
        final Map<String, List<String>> placements;
        private String frame;
        private String withheld;

        Numbered(long id, StateEvent event, Map<String, List<String>> placements) {
            this.id = id;
            this.event = event;
            this.placements = placements;
            this.poolPath = placements.isEmpty() ? List.of() : placements.values().iterator().next();
        }

        long id() {
            return id;
        }

        StateEvent event() {
            return event;
        }

        List<String> poolPath() {
            return poolPath;
        }

        /** The event as a stream sends it to {@code reader} (each form written once, under the hub's lock). */
        String frame(Reader reader) {
            if (frame == null) {
                frame = frame(event);
            }
            String message = event.message();
            if (message == null || !message.contains(JobOutput.STDERR_MARK) || reader.user().equals(event.user())
                    || reader.mayReadOutput(event.user(), placements)) {
                return frame;
            }
            if (withheld == null) {
                withheld = frame(new StateEvent(event.type(), event.operationId(), event.jobId(), event.state(),
                        event.user(), event.pool(), event.node(), event.reason(), JobOutput.forReader(message, false),
                        event.at()));
            }
            return withheld;
        }

        private String frame(StateEvent said) {
            return "id: " + id + "\nevent: " + said.type() + "\ndata: " + ApiJson.writeCompact(said) + "\n\n";
        }
    }

    /** What a stream wants: one operation, or one pool and the pools below it ({@code null}: all). */
    public record Filter(String operation, String pool) {
        boolean takes(Numbered event) {
            return (operation == null || operation.equals(event.event().operationId()))
                    && (pool == null || event.poolPath().contains(pool));
        }
    }

    private final ArrayDeque<Numbered> kept = new ArrayDeque<>();
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private long next = 1;

    private record Subscriber(Filter filter, Reader reader, Consumer<String> sink) {
    }

    /**
     * Numbers an event and sends it to the streams that want it; {@code placements}: its
     * operation's pool per tree, the first first ({@link #placements}), kept as given (not changed after).
     */
    public void publish(StateEvent event, Map<String, List<String>> placements) {
        Numbered numbered;
        synchronized (this) {
            long id = next++;
            numbered = new Numbered(id, event, placements);
            kept.addLast(numbered);
            if (kept.size() > KEPT) {
                kept.removeFirst();
            }
            // under the lock: a stream opening meanwhile gets each event once, replayed or sent
            for (Subscriber subscriber : subscribers) {
                if (subscriber.filter().takes(numbered)) {
                    subscriber.sink().accept(numbered.frame(subscriber.reader()));
                }
            }
        }
    }

    /** The stream of {@code filter}'s events after {@code lastEventId} ({@code null}: from now on), as {@code reader} may see them. */
    public EventStream stream(Filter filter, Reader reader, Long lastEventId) {
        return sink -> {
            Subscriber subscriber = new Subscriber(filter, reader, sink);
            synchronized (this) {
                refuseBeyondBounds(reader.user());
                sink.accept("retry: 2000\n\n");
                if (lastEventId != null) {
                    Numbered oldest = kept.peekFirst();
                    if (oldest != null && lastEventId < oldest.id() - 1 || lastEventId >= next) {
                        sink.accept("event: reset\ndata: {\"message\": \"events after " + lastEventId + " are no longer "
                                + "kept: read the state again\"}\n\n");
                    } else {
                        for (Iterator<Numbered> it = kept.iterator(); it.hasNext();) {
                            Numbered event = it.next();
                            if (event.id() > lastEventId && filter.takes(event)) {
                                sink.accept(event.frame(reader));
                            }
                        }
                    }
                }
                subscribers.add(subscriber);
            }
            return () -> subscribers.remove(subscriber);
        };
    }

    /** An operation's pool in each of its trees, as the path from it to its tree's root. */
    public static Map<String, List<String>> placements(Cluster cluster, Operation operation) {
        Map<String, List<String>> placements = new LinkedHashMap<>();
        for (Map.Entry<String, String> placed : operation.poolByTree().entrySet()) {
            TreePools pools = cluster.registry().pools(placed.getKey());
            placements.put(placed.getKey(), pools != null && pools.contains(placed.getValue())
                    ? pools.pathToRoot(placed.getValue()) : List.of(placed.getValue()));
        }
        return Collections.unmodifiableMap(placements);
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
        kept.forEach(event -> out.add(event.event()));
        return out;
    }
}
