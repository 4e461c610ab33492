package io.grove.server.http;

import io.grove.api.ApiJson;
import io.grove.api.StateEvent;
import io.grove.http.EventStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The changes of operations and jobs, numbered, for {@code GET /api/v1/events}: the last
 * {@link #KEPT} are kept so that a client that reconnects with {@code Last-Event-ID} misses none;
 * one that asks from further back is told to read the state again ({@code event: reset}). Published
 * on the scheduler's thread; each stream hears only what its filter takes.
 */
public final class EventHub {

    /** How many events are kept for clients that reconnect. */
    public static final int KEPT = 10_000;

    /** How many streams may be open at once. */
    public static final int MAX_STREAMS = 256;

    /** An event with its number and what filters match; its frame is written when first sent. */
    static final class Numbered {
        final long id;
        final StateEvent event;
        final List<String> poolPath;
        private String frame;

        Numbered(long id, StateEvent event, List<String> poolPath) {
            this.id = id;
            this.event = event;
            this.poolPath = poolPath;
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

        /** The event as a stream sends it (written once, under the hub's lock). */
        String frame() {
            if (frame == null) {
                frame = "id: " + id + "\nevent: " + event.type() + "\ndata: " + ApiJson.writeCompact(event) + "\n\n";
            }
            return frame;
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

    private record Subscriber(Filter filter, Consumer<String> sink) {
    }

    /** Numbers an event and sends it to the streams that want it. */
    public void publish(StateEvent event, List<String> poolPath) {
        Numbered numbered;
        synchronized (this) {
            long id = next++;
            numbered = new Numbered(id, event, List.copyOf(poolPath));
            kept.addLast(numbered);
            if (kept.size() > KEPT) {
                kept.removeFirst();
            }
            // under the lock: a stream opening meanwhile gets each event once, replayed or sent
            for (Subscriber subscriber : subscribers) {
                if (subscriber.filter().takes(numbered)) {
                    subscriber.sink().accept(numbered.frame());
                }
            }
        }
    }

    /** The stream of {@code filter}'s events after {@code lastEventId} ({@code null}: from now on). */
    public EventStream stream(Filter filter, Long lastEventId) {
        return sink -> {
            Subscriber subscriber = new Subscriber(filter, sink);
            synchronized (this) {
                if (subscribers.size() >= MAX_STREAMS) {
                    throw new io.grove.http.ApiException(503, "TOO_BUSY", MAX_STREAMS + " event streams are open; try "
                            + "again later");
                }
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
                                sink.accept(event.frame());
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

    /** The events kept now (for tests and the document's examples). */
    synchronized List<StateEvent> kept() {
        List<StateEvent> out = new ArrayList<>();
        kept.forEach(event -> out.add(event.event()));
        return out;
    }
}
