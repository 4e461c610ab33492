/**
 * "When will it start?": predicted start times of an operation's jobs, from a copy of the live
 * state run forward by the real scheduling core on a virtual clock ({@link io.grove.core.forecast.StartForecast}),
 * with job durations drawn from the jobs that ran before ({@link io.grove.core.forecast.Durations}).
 */
package io.grove.core.forecast;
