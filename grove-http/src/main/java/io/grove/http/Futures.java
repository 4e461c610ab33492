package io.grove.http;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/** Failures of futures as their handlers mean them, without the wrapping the stages add. */
public final class Futures {

    private Futures() {
    }

    /** The exception a stage threw, unwrapped from the {@link CompletionException} later stages see. */
    public static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /**
     * {@code future}, failing with what {@code translate} makes of its failure's cause instead;
     * a cause it answers {@code null} for fails as it did.
     */
    public static <T> CompletableFuture<T> translate(CompletableFuture<T> future,
            Function<Throwable, RuntimeException> translate) {
        return future.exceptionally(failure -> {
            RuntimeException translated = translate.apply(cause(failure));
            if (translated != null) {
                throw translated;
            }
            throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
        });
    }
}
