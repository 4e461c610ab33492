package io.grove.config.whatif;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.grove.core.fairshare.Alert;
import io.grove.core.fairshare.DetailedFairShare;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.IntegralAttributes;
import io.grove.core.fairshare.IntegralState;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a fair-share result in the what-if output format of {@code design.md}: shares as objects
 * of the five resources, volumes absolute, and {@code integral_state} in the snapshot's own form
 * so that updates can be chained.
 */
public final class ResultJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private ResultJson() {
    }

    public static String toJson(FairShareInput input, FairShareResult result) {
        StringWriter out = new StringWriter();
        write(input, result, out);
        return out.toString();
    }

    public static void write(FairShareInput input, FairShareResult result, Writer out) {
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("tree", input.tree().name());
            json.writeFieldName("total_resources");
            writeResources(json, input.totalResources());
            json.writeArrayFieldStart("alerts");
            for (Alert alert : result.alerts()) {
                json.writeStartObject();
                json.writeStringField("code", alert.code().name().toLowerCase(Locale.ROOT));
                json.writeStringField("message", alert.message());
                json.writeObjectFieldStart("attributes");
                for (Map.Entry<String, String> entry : new TreeMap<>(alert.attributes()).entrySet()) {
                    json.writeStringField(entry.getKey(), entry.getValue());
                }
                json.writeEndObject();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeObjectFieldStart("elements");
            for (ElementShares element : result.elements().values()) {
                json.writeFieldName(element.id());
                writeElement(json, element);
            }
            json.writeEndObject();
            json.writeObjectFieldStart("integral_state");
            for (Map.Entry<String, IntegralState> entry : result.integralState().entrySet()) {
                json.writeObjectFieldStart(entry.getKey());
                json.writeFieldName("accumulated_volume");
                writeResources(json, entry.getValue().accumulatedVolume());
                json.writeNumberField("last_share_ratio", entry.getValue().lastShareRatio());
                json.writeEndObject();
            }
            json.writeEndObject();
            json.writeEndObject();
            json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One element as the what-if output writes it, as a JSON object text. */
    public static String elementJson(ElementShares element) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            writeElement(json, element);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void writeElement(JsonGenerator json, ElementShares e) throws IOException {
        json.writeStartObject();
        json.writeStringField("kind", e.kind().name().toLowerCase(Locale.ROOT));
        json.writeStringField("parent", e.parent());
        json.writeNumberField("weight", e.weight());
        share(json, "demand_share", e.demandShare());
        share(json, "usage_share", e.usageShare());
        share(json, "limits_share", e.limitsShare());
        share(json, "strong_guarantee_share", e.strongGuaranteeShare());
        share(json, "integral_share", e.integralShare());
        detailed(json, "fair_share", e.fairShare());
        if (e.promisedGuaranteeFairShare() != null) {
            detailed(json, "promised_guarantee_fair_share", e.promisedGuaranteeFairShare());
        }
        json.writeNumberField("satisfaction_ratio", e.satisfactionRatio());
        if (e.fifoIndex() >= 0) {
            json.writeNumberField("fifo_index", e.fifoIndex());
        }
        IntegralAttributes integral = e.integral();
        if (integral != null) {
            json.writeStringField("integral_guarantee_type", integral.guaranteeType().name().toLowerCase(Locale.ROOT));
            json.writeFieldName("accumulated_resource_volume");
            writeResources(json, integral.accumulatedResourceVolume());
            json.writeNumberField("accumulated_resource_ratio_volume", integral.accumulatedResourceRatioVolume());
            json.writeFieldName("integral_pool_capacity");
            writeResources(json, integral.integralPoolCapacity());
            json.writeNumberField("specified_burst_ratio", integral.specifiedBurstRatio());
            json.writeNumberField("specified_resource_flow_ratio", integral.specifiedResourceFlowRatio());
            json.writeNumberField("total_burst_ratio", integral.totalBurstRatio());
            json.writeNumberField("total_resource_flow_ratio", integral.totalResourceFlowRatio());
            if (integral.estimatedBurstUsageDurationSeconds() != null) {
                json.writeNumberField("estimated_burst_usage_duration_seconds", integral.estimatedBurstUsageDurationSeconds());
            }
        }
        json.writeEndObject();
    }

    private static void detailed(JsonGenerator json, String name, DetailedFairShare share) throws IOException {
        json.writeObjectFieldStart(name);
        share(json, "strong_guarantee", share.strongGuarantee());
        share(json, "integral_guarantee", share.integralGuarantee());
        share(json, "weight_proportional", share.weightProportional());
        share(json, "total", share.total());
        json.writeEndObject();
    }

    private static void share(JsonGenerator json, String name, ShareVector share) throws IOException {
        json.writeObjectFieldStart(name);
        for (ResourceType type : ResourceType.values()) {
            json.writeNumberField(type.key(), share.get(type));
        }
        json.writeEndObject();
    }

    private static void writeResources(JsonGenerator json, Resources resources) throws IOException {
        json.writeStartObject();
        for (ResourceType type : ResourceType.values()) {
            double value = resources.get(type);
            if (value == Math.rint(value) && Math.abs(value) < 1e15) {
                json.writeNumberField(type.key(), (long) value);
            } else {
                json.writeNumberField(type.key(), value);
            }
        }
        json.writeEndObject();
    }
}
