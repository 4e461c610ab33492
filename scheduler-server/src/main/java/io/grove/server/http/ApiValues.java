package io.grove.server.http;

import io.grove.api.Amounts;
import io.grove.api.ElementView;
import io.grove.api.FairShareByOrigin;
import io.grove.api.ResourceShares;
import io.grove.core.fairshare.DetailedFairShare;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.IntegralAttributes;
import io.grove.core.pool.PartialResources;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
import java.util.Locale;

/** The core's values as the API's records carry them. */
public final class ApiValues {

    private ApiValues() {
    }

    /** Amounts; infinite ones (unlimited) are left out. */
    public static Amounts amounts(Resources resources) {
        return Amounts.of(resources.toArray());
    }

    /** Configured amounts: only the ones set; none for {@code null}. */
    public static Amounts amounts(PartialResources resources) {
        if (resources == null) {
            return Amounts.NONE;
        }
        double[] values = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};
        resources.values().forEach((type, value) -> values[type.ordinal()] = value);
        return Amounts.of(values);
    }

    public static ResourceShares shares(ShareVector share) {
        return new ResourceShares(share.get(ResourceType.USER_SLOTS), share.get(ResourceType.CPU),
                share.get(ResourceType.GPU), share.get(ResourceType.MEMORY), share.get(ResourceType.NETWORK));
    }

    public static FairShareByOrigin byOrigin(DetailedFairShare share) {
        return share == null ? null : new FairShareByOrigin(shares(share.strongGuarantee()),
                shares(share.integralGuarantee()), shares(share.weightProportional()), shares(share.total()));
    }

    /** An element of a fair-share result as the what-if output and the API show it. */
    public static ElementView element(ElementShares e) {
        IntegralAttributes integral = e.integral();
        return new ElementView(lower(e.kind()), e.parent(), e.weight(), shares(e.demandShare()), shares(e.usageShare()),
                shares(e.limitsShare()), shares(e.strongGuaranteeShare()), shares(e.integralShare()),
                byOrigin(e.fairShare()), byOrigin(e.promisedGuaranteeFairShare()), e.satisfactionRatio(),
                e.fifoIndex() >= 0 ? e.fifoIndex() : null,
                integral == null ? null : lower(integral.guaranteeType()),
                integral == null ? null : amounts(integral.accumulatedResourceVolume()),
                integral == null ? null : integral.accumulatedResourceRatioVolume(),
                integral == null ? null : amounts(integral.integralPoolCapacity()),
                integral == null ? null : integral.specifiedBurstRatio(),
                integral == null ? null : integral.specifiedResourceFlowRatio(),
                integral == null ? null : integral.totalBurstRatio(),
                integral == null ? null : integral.totalResourceFlowRatio(),
                integral == null ? null : integral.estimatedBurstUsageDurationSeconds());
    }

    /** An enum's name as the API writes it: lower case; {@code null} stays {@code null}. */
    public static String lower(Enum<?> value) {
        return value == null ? null : value.name().toLowerCase(Locale.ROOT);
    }
}
