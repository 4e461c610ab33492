package io.grove.server.coord;

/**
 * Where the scheduler keeps its state in ZooKeeper, under one root ({@code /grove} by default):
 *
 * <pre>
 * ROOT/epoch              the leader's epoch (8 bytes); its znode version fences every write
 * ROOT/leader             the leader's addresses (ephemeral, written by the leader)
 * ROOT/election           the leader latch
 * ROOT/log/r-0000000001   a batch of events (or one part of a large batch), in order
 * ROOT/snapshot           which snapshot is current and the last log record it covers
 * ROOT/snapshots/s-N/c-M  a snapshot's chunks
 * </pre>
 */
public record ZkLayout(String root) {

    public static final String DEFAULT_ROOT = "/grove";

    public ZkLayout {
        if (!root.startsWith("/") || root.length() > 1 && root.endsWith("/") || root.contains("//")) {
            throw new IllegalArgumentException("a ZooKeeper root is an absolute path like /grove, got '" + root + "'");
        }
    }

    public String epoch() {
        return root + "/epoch";
    }

    public String leader() {
        return root + "/leader";
    }

    public String election() {
        return root + "/election";
    }

    public String log() {
        return root + "/log";
    }

    public String logRecord() {
        return log() + "/r-";
    }

    public String snapshot() {
        return root + "/snapshot";
    }

    public String snapshots() {
        return root + "/snapshots";
    }

    /** The sequence number of a log record from its name ({@code r-0000000042} is 42). */
    public static long sequenceOf(String child) {
        return Long.parseLong(child.substring(child.lastIndexOf('-') + 1));
    }
}
