package io.grove.cli.out;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: a header, rows, text columns left-aligned and numeric ones right-aligned,
 * two spaces between columns. When the table is wider than the terminal width, the widest text
 * columns are cut with {@code …} until it fits.
 */
public final class Table {

    /** A column: its title and whether its values are numbers (right-aligned). */
    public record Column(String title, boolean right) {
    }

    public static Column text(String title) {
        return new Column(title, false);
    }

    public static Column number(String title) {
        return new Column(title, true);
    }

    private final List<Column> columns;
    private final List<String[]> rows = new ArrayList<>();
    private final List<String[]> styled = new ArrayList<>();

    public Table(Column... columns) {
        this.columns = List.of(columns);
    }

    /** Adds a row; values are shown as given. */
    public Table row(String... values) {
        return row(values, values);
    }

    /**
     * Adds a row whose cells have a styled form (with color codes) for display; widths come from
     * the plain form.
     */
    public Table row(String[] plain, String[] display) {
        if (plain.length != columns.size()) {
            throw new IllegalArgumentException("a row of " + plain.length + " cells for " + columns.size() + " columns");
        }
        rows.add(plain.clone());
        styled.add(display.clone());
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The table in at most {@code width} columns of text. */
    public String render(int width, Style style) {
        int n = columns.size();
        int[] widths = new int[n];
        for (int c = 0; c < n; c++) {
            widths[c] = columns.get(c).title().length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        int total = 2 * (n - 1);
        for (int w : widths) {
            total += w;
        }
        while (total > width) {
            int widest = -1;
            for (int c = 0; c < n; c++) {
                if (!columns.get(c).right() && widths[c] > Math.max(6, columns.get(c).title().length())
                        && (widest < 0 || widths[c] > widths[widest])) {
                    widest = c;
                }
            }
            if (widest < 0) {
                break;
            }
            widths[widest]--;
            total--;
        }
        StringBuilder out = new StringBuilder();
        String[] titles = columns.stream().map(Column::title).toArray(String[]::new);
        line(out, titles, titles, widths, true, style);
        for (int r = 0; r < rows.size(); r++) {
            line(out, rows.get(r), styled.get(r), widths, false, style);
        }
        return out.toString();
    }

    private void line(StringBuilder out, String[] plain, String[] display, int[] widths, boolean header, Style style) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < plain.length; c++) {
            String text = plain[c];
            String shown = display[c];
            if (text.length() > widths[c]) {
                text = text.substring(0, widths[c] - 1) + "…";
                shown = text;
            }
            String pad = " ".repeat(widths[c] - text.length());
            if (header) {
                shown = style.bold(text);
            }
            if (columns.get(c).right()) {
                line.append(pad).append(shown);
            } else {
                line.append(shown).append(c == plain.length - 1 ? "" : pad);
            }
            if (c < plain.length - 1) {
                line.append("  ");
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
