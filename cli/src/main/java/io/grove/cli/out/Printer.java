package io.grove.cli.out;

import io.grove.api.ApiJson;
import java.io.PrintWriter;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/** Prints what a command found as a table (the command's own rendering), JSON or YAML. */
public final class Printer {

    /** The width tables fit in on a terminal that does not say its own ({@code COLUMNS}). */
    public static final int WIDTH = 100;
    /** A table's width when nothing cuts it: {@code -o wide}, or output that is no terminal (a pipe, a file). */
    public static final int UNCUT = Integer.MAX_VALUE;

    private final PrintWriter out;
    private final String format;
    private final Style style;
    /** Where notes about the output go (standard error), so that JSON and YAML stay whole. */
    private final PrintWriter notes;
    /** The width tables fit in: their widest text columns are cut with an ellipsis beyond it. */
    private final int width;

    public Printer(PrintWriter out, String format, Style style) {
        this(out, format, style, out, WIDTH);
    }

    /** {@code format} {@code wide} is a table never cut. */
    public Printer(PrintWriter out, String format, Style style, PrintWriter notes, int width) {
        this.out = out;
        this.format = format.equals("wide") ? "table" : format;
        this.style = style;
        this.notes = notes;
        this.width = format.equals("wide") ? UNCUT : width;
    }

    public boolean table() {
        return format.equals("table");
    }

    public Style style() {
        return style;
    }

    /**
     * One record of a stream (an event): JSON on one line of its own, or one YAML document of a
     * stream ({@code ---} first); returns false when the format is a table (the caller renders it).
     */
    public boolean record(Object body) {
        if (format.equals("yaml")) {
            out.println("---");
        }
        return print(body, true);
    }

    /** The data as JSON or YAML; returns false when the format is a table (the caller renders it). */
    public boolean data(Object body) {
        return print(body, false);
    }

    private boolean print(Object body, boolean oneLine) {
        if (format.equals("json")) {
            out.println(oneLine ? ApiJson.writeCompact(body) : ApiJson.write(body));
            out.flush();
            return true;
        }
        if (format.equals("yaml")) {
            DumperOptions options = new DumperOptions();
            options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
            options.setIndicatorIndent(0);
            out.print(new Yaml(options).dump(ApiJson.mapper().convertValue(body, Object.class)));
            out.flush();
            return true;
        }
        return false;
    }

    /** Whether the output is CSV (commands that offer it say so). */
    public boolean csv() {
        return format.equals("csv");
    }

    /** Rows as CSV (RFC 4180: a field with a comma, a quote or a line break is quoted). */
    public void printCsv(List<List<String>> rows) {
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String field = row.get(i) == null ? "" : row.get(i);
                line.append(i == 0 ? "" : ",");
                line.append(field.matches("[^,\"\r\n]*") ? field : "\"" + field.replace("\"", "\"\"") + "\"");
            }
            out.print(line.append("\r\n"));
        }
        out.flush();
    }

    public void print(Table table) {
        out.print(table.render(width, style));
        out.flush();
    }

    public void println(String line) {
        out.println(line);
        out.flush();
    }

    /** A note about the output (that it is a part), on standard error. */
    public void warn(String line) {
        notes.println("grove: " + line);
        notes.flush();
    }

    public PrintWriter writer() {
        return out;
    }
}
