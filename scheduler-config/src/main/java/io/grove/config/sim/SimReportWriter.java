package io.grove.config.sim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.grove.core.sim.SimReport;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a simulation's report into a directory: {@code summary.json}, {@code timeseries.csv} and
 * {@code chart.html} (one SVG chart per pool: usage share against fair share over time). The
 * formats are documented in {@code docs/simulate.md}.
 */
public final class SimReportWriter {

    private static final JsonFactory FACTORY = new JsonFactory();

    private SimReportWriter() {
    }

    public static void write(SimReport report, Path directory) throws IOException {
        Files.createDirectories(directory);
        try (Writer out = Files.newBufferedWriter(directory.resolve("summary.json"), StandardCharsets.UTF_8)) {
            summary(report, out);
        }
        try (Writer out = Files.newBufferedWriter(directory.resolve("timeseries.csv"), StandardCharsets.UTF_8)) {
            timeseries(report, out);
        }
        try (Writer out = Files.newBufferedWriter(directory.resolve("chart.html"), StandardCharsets.UTF_8)) {
            chart(report, out);
        }
    }

    public static void summary(SimReport report, Writer out) throws IOException {
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeNumberField("seed", report.seed());
            json.writeNumberField("simulated_seconds", report.simulatedSeconds());
            json.writeObjectFieldStart("pools");
            for (Map.Entry<String, Map<String, SimReport.PoolSummary>> tree : report.pools().entrySet()) {
                json.writeObjectFieldStart(tree.getKey());
                for (Map.Entry<String, SimReport.PoolSummary> pool : tree.getValue().entrySet()) {
                    SimReport.PoolSummary s = pool.getValue();
                    json.writeObjectFieldStart(pool.getKey());
                    json.writeNumberField("mean_usage_share", s.meanUsageShare());
                    json.writeNumberField("mean_fair_share", s.meanFairShare());
                    json.writeNumberField("mean_demand_share", s.meanDemandShare());
                    json.writeNumberField("final_usage_share", s.finalUsageShare());
                    json.writeNumberField("final_fair_share", s.finalFairShare());
                    json.writeNumberField("starving_seconds", s.starvingSeconds());
                    json.writeEndObject();
                }
                json.writeEndObject();
            }
            json.writeEndObject();
            json.writeObjectFieldStart("utilization");
            for (Map.Entry<String, Double> entry : report.utilization().entrySet()) {
                json.writeNumberField(entry.getKey(), entry.getValue());
            }
            json.writeEndObject();
            json.writeNumberField("heartbeats", report.heartbeats());
            json.writeNumberField("jobs_started", report.jobsStarted());
            json.writeNumberField("jobs_preempted", report.jobsPreempted());
            json.writeObjectFieldStart("lost_work");
            for (Map.Entry<String, Double> entry : report.lostWork().entrySet()) {
                json.writeNumberField(entry.getKey(), entry.getValue());
            }
            json.writeEndObject();
            json.writeNumberField("jobs_completed", report.jobsCompleted());
            json.writeNumberField("operations_completed", report.operationsCompleted());
            json.writeNumberField("submissions_refused", report.submissionsRefused());
            json.writeNumberField("mean_job_wait_seconds", report.meanJobWaitSeconds());
            json.writeNumberField("p95_job_wait_seconds", report.p95JobWaitSeconds());
            json.writeNumberField("invariant_violations", report.invariantViolations());
            json.writeArrayFieldStart("violations");
            for (String violation : report.violations()) {
                json.writeString(violation);
            }
            json.writeEndArray();
            json.writeNumberField("decision_seconds", report.decisionSeconds());
            json.writeNumberField("fair_share_update_seconds", report.fairShareUpdateSeconds());
            json.writeEndObject();
        }
    }

    public static void timeseries(SimReport report, Writer out) throws IOException {
        out.write("seconds,tree,pool,usage_share,fair_share,demand_share,starving\n");
        for (SimReport.Sample s : report.samples()) {
            out.write(String.format(Locale.ROOT, "%.3f,%s,%s,%.6f,%.6f,%.6f,%s%n", s.seconds(), s.tree(), s.pool(),
                    s.usageShare(), s.fairShare(), s.demandShare(), s.starving()));
        }
    }

    public static void chart(SimReport report, Writer out) throws IOException {
        Map<String, List<SimReport.Sample>> byPool = new LinkedHashMap<>();
        for (SimReport.Sample s : report.samples()) {
            byPool.computeIfAbsent(s.tree() + " / " + s.pool(), k -> new ArrayList<>()).add(s);
        }
        double end = Math.max(1, report.simulatedSeconds());
        out.write("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Grove simulation, seed " + report.seed()
                + "</title>\n<style>body{font-family:sans-serif}figure{display:inline-block;margin:8px}"
                + "figcaption{font-size:13px}.u{stroke:#1f77b4}.f{stroke:#d62728;stroke-dasharray:4 3}"
                + ".d{stroke:#aaa;stroke-dasharray:1 3}polyline{fill:none;stroke-width:1.5}</style></head><body>\n");
        out.write("<h1>Usage share vs fair share (dominant resource)</h1>\n<p>Seed " + report.seed() + ", "
                + String.format(Locale.ROOT, "%.0f", end) + " simulated seconds. Blue: usage; red dashed: fair share; "
                + "grey dotted: demand. Each chart spans 0 to 1 of the tree.</p>\n");
        for (Map.Entry<String, List<SimReport.Sample>> pool : byPool.entrySet()) {
            out.write("<figure><svg width=\"360\" height=\"160\" viewBox=\"0 0 360 160\">"
                    + "<rect x=\"0\" y=\"0\" width=\"360\" height=\"160\" fill=\"#fafafa\" stroke=\"#ddd\"/>");
            out.write(line(pool.getValue(), end, 2, "d"));
            out.write(line(pool.getValue(), end, 1, "f"));
            out.write(line(pool.getValue(), end, 0, "u"));
            out.write("</svg><figcaption>" + escape(pool.getKey()) + "</figcaption></figure>\n");
        }
        out.write("</body></html>\n");
    }

    private static String line(List<SimReport.Sample> samples, double end, int which, String style) {
        StringBuilder points = new StringBuilder();
        for (SimReport.Sample s : samples) {
            double value = which == 0 ? s.usageShare() : which == 1 ? s.fairShare() : s.demandShare();
            double x = 360 * s.seconds() / end;
            double y = 155 - 150 * Math.min(1, Math.max(0, value));
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        return "<polyline class=\"" + style + "\" points=\"" + points.toString().trim() + "\"/>";
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
