package io.grove.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A component that holds an instant as ISO-8601 text in UTC ({@code 2026-11-28T10:00:00.123Z}):
 * the OpenAPI document gives it {@code format: date-time}, so that generated clients read a time.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER})
public @interface Timestamp {
}
