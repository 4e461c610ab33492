package io.grove.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/** Writes an amount that is a whole number as one ({@code 4}, not {@code 4.0}): bytes and slots read as counts. */
final class WholeNumbers extends StdSerializer<Double> {

    WholeNumbers() {
        super(Double.class);
    }

    @Override
    public void serialize(Double value, JsonGenerator out, SerializerProvider provider) throws IOException {
        double v = value;
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            out.writeNumber((long) v);
        } else {
            out.writeNumber(v);
        }
    }
}
