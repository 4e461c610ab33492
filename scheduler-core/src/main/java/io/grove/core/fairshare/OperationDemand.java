package io.grove.core.fairshare;

import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
import java.time.Instant;

/**
 * What the fair-share update needs to know of one operation in one tree.
 *
 * @param id operation id, unique in the tree
 * @param pool the pool it runs in ({@code <Root>} for the root)
 * @param weight positive weight among its siblings
 * @param demand usage plus the resources of its pending jobs
 * @param usage resources of its running jobs; at most the demand
 * @param resourceLimits the operation's own limits ({@link Resources#UNLIMITED} when none)
 * @param bestAllocationShare what the node memory distribution lets it use, as a share
 * @param gang all-or-nothing operation
 * @param startTime FIFO order key; may be {@code null}
 * @param pendingJobCount FIFO order key
 */
public record OperationDemand(
        String id,
        String pool,
        double weight,
        Resources demand,
        Resources usage,
        Resources resourceLimits,
        ShareVector bestAllocationShare,
        boolean gang,
        Instant startTime,
        int pendingJobCount) {

    /** No cap from the node memory distribution. */
    public static final ShareVector NO_FIT_CAP = ShareVector.uniform(1.0);

    public OperationDemand {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("operation id must not be empty");
        }
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("operation " + id + ": weight must be positive, got " + weight);
        }
        usage = usage == null ? Resources.ZERO : usage;
        resourceLimits = resourceLimits == null ? Resources.UNLIMITED : resourceLimits;
        bestAllocationShare = bestAllocationShare == null ? NO_FIT_CAP : bestAllocationShare;
        if (!demand.dominates(usage)) {
            throw new IllegalArgumentException("operation " + id + ": demand " + demand + " is below usage " + usage);
        }
    }

    /** An operation with the given demand and nothing running. */
    public static OperationDemand of(String id, String pool, Resources demand) {
        return new OperationDemand(id, pool, 1.0, demand, Resources.ZERO, null, null, false, null, 0);
    }

    public OperationDemand withWeight(double newWeight) {
        return new OperationDemand(id, pool, newWeight, demand, usage, resourceLimits, bestAllocationShare, gang,
                startTime, pendingJobCount);
    }

    public OperationDemand withUsage(Resources newUsage) {
        return new OperationDemand(id, pool, weight, demand, newUsage, resourceLimits, bestAllocationShare, gang,
                startTime, pendingJobCount);
    }

    public OperationDemand asGang() {
        return new OperationDemand(id, pool, weight, demand, usage, resourceLimits, bestAllocationShare, true,
                startTime, pendingJobCount);
    }
}
