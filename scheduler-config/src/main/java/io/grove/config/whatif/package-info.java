/**
 * The what-if tool's input: a snapshot (one tree, operations with demand and usage, integral
 * state, elapsed time) read into a fair-share input. The result is written as the API's
 * {@code WhatIfResult} by the server's {@code io.grove.server.http.WhatIfJson}, so that loading
 * YAML does not depend on the HTTP records.
 */
package io.grove.config.whatif;
