package io.grove.cli.out;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class TableAndFormatTest {

    record Case(String name, String got, String want) {
    }

    static List<Case> formats() {
        return List.of(
                new Case("whole cpu", Format.cpu(12), "12 cpu"),
                new Case("half cpu", Format.cpu(12.5), "12.5 cpu"),
                new Case("small cpu", Format.cpu(0.25), "0.25 cpu"),
                new Case("gibibytes", Format.bytes(48L << 30), "48Gi"),
                new Case("fraction of gibibytes", Format.bytes(1.5 * (1L << 30)), "1.5Gi"),
                new Case("bytes", Format.bytes(512), "512"),
                new Case("percent", Format.percent(0.374), "37%"),
                new Case("below one percent", Format.percent(0.0049), "0.5%"),
                new Case("zero", Format.percent(0), "0%"),
                new Case("seconds", Format.duration(Duration.ofSeconds(45)), "45s"),
                new Case("minutes", Format.duration(Duration.ofSeconds(185)), "3m05s"),
                new Case("hours", Format.duration(Duration.ofMinutes(124)), "2h04m"),
                new Case("days", Format.duration(Duration.ofHours(50)), "2d02h"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void numbersCarryTheirUnits(Case c) {
        assertEquals(c.want(), c.got());
    }

    @Test
    void numbersAlignRightTextLeftAndTheTableFits() {
        Table table = new Table(Table.text("NAME"), Table.number("CPU"), Table.text("REASON"));
        table.row("a", "1 cpu", "short");
        table.row("bbbb", "12.5 cpu", "x".repeat(200));
        String text = table.render(60, Style.PLAIN);
        List<String> lines = text.lines().toList();
        assertEquals("NAME       CPU  REASON", lines.get(0));
        assertEquals("a        1 cpu  short", lines.get(1));
        assertTrue(lines.get(2).startsWith("bbbb  12.5 cpu  xxx"), lines.get(2));
        assertTrue(lines.get(2).endsWith("…"), lines.get(2));
        lines.forEach(l -> assertTrue(l.length() <= 60, l));
    }

    @Test
    void aTableIsCutOnlyToATerminalsWidthAndNeverWide() {
        Table table = new Table(Table.text("NAME"), Table.text("REASON"));
        String reason = "waits for room: " + "x".repeat(150);
        table.row("op-1", reason);
        assertTrue(printed(table, "table", Printer.UNCUT).contains(reason + "\n"), "piped: whole");
        assertTrue(printed(table, "wide", 80).contains(reason + "\n"), "-o wide on a terminal of 80 columns: whole");
        String cut = printed(table, "table", 80);
        assertTrue(cut.lines().allMatch(line -> line.length() <= 80) && cut.contains("…"), "a terminal of 80: cut " + cut);
    }

    private static String printed(Table table, String format, int width) {
        StringWriter out = new StringWriter();
        new Printer(new PrintWriter(out), format, Style.PLAIN, new PrintWriter(new StringWriter()), width).print(table);
        return out.toString();
    }

    @Test
    void colorOnlyWhenAsked() {
        assertEquals("running", Style.PLAIN.state("running"));
        assertEquals("\u001b[32mrunning\u001b[0m", new Style(true).state("running"));
    }
}
