package io.grove.core.fairshare;

/** Typed alerts an update raises about its tree's configuration. */
public enum AlertCode {
    /** Strong guarantees plus resource flows or burst guarantees exceed the tree total. */
    POOL_TREE_GUARANTEES_OVERCOMMIT,
    /** A pool computing promised guarantee fair share is nested in another one; only the outer counts. */
    NESTED_PROMISED_GUARANTEE_FAIR_SHARE_POOLS
}
