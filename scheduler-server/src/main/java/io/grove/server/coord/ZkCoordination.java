package io.grove.server.coord;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * The group's coordination on ZooKeeper through Curator: a leader latch under
 * {@link ZkLayout#election()}, the epoch as 8 bytes in {@link ZkLayout#epoch()} whose znode version
 * is the claim, and every write a multi-op transaction that starts with a version check of that
 * znode ({@link Fencing}).
 */
public final class ZkCoordination implements Coordination {

    private final CuratorFramework zk;
    private final ZkLayout layout;
    private final Duration sessionTimeout;
    private final String candidateId;
    /** The group's identity, or {@code null} for a group open to everyone (--insecure-local only). */
    private final ZkAuth auth;
    private Consumer<Signal> signals;
    private LeaderLatch latch;
    private final AtomicLong interruptions = new AtomicLong();

    private ZkCoordination(CuratorFramework zk, ZkLayout layout, Duration sessionTimeout, String candidateId, ZkAuth auth) {
        this.zk = zk;
        this.auth = auth;
        this.layout = layout;
        this.sessionTimeout = sessionTimeout;
        this.candidateId = candidateId;
    }

    /**
     * A client of the ensemble at {@code connect}; nothing happens until {@link #start}. With
     * {@code auth} its session authenticates and every znode it creates is the group's alone; without,
     * the group's state is open to every client of the ensemble (--insecure-local).
     */
    public static ZkCoordination create(String connect, ZkLayout layout, Duration sessionTimeout, String candidateId,
            ZkAuth auth) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder().connectString(connect)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) Math.min(sessionTimeout.toMillis(), 15_000))
                .retryPolicy(new ExponentialBackoffRetry(200, 3));
        if (auth != null) {
            builder.authorization("digest", auth.bytes()).aclProvider(new ACLProvider() {
                @Override
                public List<ACL> getDefaultAcl() {
                    return ZkAuth.acl();
                }

                @Override
                public List<ACL> getAclForPath(String path) {
                    return ZkAuth.acl();
                }
            });
        }
        return new ZkCoordination(builder.build(), layout, sessionTimeout, candidateId == null ? "" : candidateId, auth);
    }

    /** A coordination over a client the caller started (tests and tools); {@link #close} closes it. */
    public static ZkCoordination over(CuratorFramework zk, ZkLayout layout, Duration sessionTimeout) {
        return new ZkCoordination(zk, layout, sessionTimeout, "", null);
    }

    /** The Curator client (for tests that cut it off). */
    public CuratorFramework client() {
        return zk;
    }

    @Override
    public void start(Consumer<Signal> signals) throws CoordinationException {
        this.signals = signals;
        if (zk.getState() == CuratorFrameworkState.LATENT) {
            zk.start();
        }
        try {
            if (!zk.blockUntilConnected((int) sessionTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new CoordinationException(CoordinationException.Kind.OUTCOME_UNKNOWN, "cannot reach ZooKeeper at "
                        + zk.getZookeeperClient().getCurrentConnectionString() + " within "
                        + sessionTimeout.toSeconds() + " s", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CoordinationException(CoordinationException.Kind.OUTCOME_UNKNOWN, "interrupted while connecting", e);
        }
        zk.getConnectionStateListenable().addListener((client, state) -> {
            Signal signal = switch (state) {
                case SUSPENDED -> Signal.SUSPENDED;
                case LOST -> Signal.SESSION_LOST;
                case RECONNECTED -> Signal.RECONNECTED;
                default -> null;
            };
            if (signal == Signal.SUSPENDED || signal == Signal.SESSION_LOST) {
                interruptions.incrementAndGet();
            }
            if (signal != null) {
                signals.accept(signal);
            }
        }, Runnable::run);
        ensurePath(layout.log());
        if (auth != null) {
            refuseOpenState();
        }
        joinElection();
    }

    /**
     * Refuses a group whose state anyone may change: the root, or a znode the group keeps directly
     * under it, whose ACL names {@code world} (created by a scheduler without authentication, or by
     * hand). Any client of the ensemble, a job among them, could then delete or rewrite the state.
     */
    private void refuseOpenState() throws CoordinationException {
        List<String> paths = new ArrayList<>(List.of(layout.root()));
        for (String child : children(layout.root())) {
            paths.add(layout.root().equals("/") ? "/" + child : layout.root() + "/" + child);
        }
        for (String path : paths) {
            List<ACL> acl;
            try {
                acl = zk.getACL().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                continue;
            } catch (Exception e) {
                throw failure(e, "read the ACL of " + path);
            }
            for (ACL entry : acl) {
                if (entry.getId().getScheme().equals("world")) {
                    throw new CoordinationException(CoordinationException.Kind.REFUSED, "ZooKeeper: the group's state at "
                            + path + " is open to everyone (world:" + entry.getId().getId() + "): any client of the "
                            + "ensemble could change or delete it. Give the group a root of its own "
                            + "(--zookeeper-root), or lock this one to the schedulers' identity (zkCli.sh: addauth digest "
                            + auth.user() + ":PASSWORD, then setAcl -R " + layout.root() + " auth::cdrwa)", null);
                }
            }
        }
    }

    private synchronized void joinElection() throws CoordinationException {
        LeaderLatch joined = new LeaderLatch(zk, layout.election(), candidateId);
        joined.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                signals.accept(Signal.ELECTED);
            }

            @Override
            public void notLeader() {
                signals.accept(Signal.NOT_ELECTED);
            }
        }, Runnable::run);
        try {
            joined.start();
        } catch (Exception e) {
            throw failure(e, "join the election");
        }
        latch = joined;
    }

    @Override
    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    @Override
    public boolean connected() {
        return zk.getZookeeperClient().isConnected();
    }

    @Override
    public long interruptions() {
        return interruptions.get();
    }

    @Override
    public synchronized void rejoin() throws CoordinationException {
        leaveElection();
        joinElection();
    }

    private synchronized void leaveElection() {
        if (latch != null) {
            try {
                latch.close(LeaderLatch.CloseMode.SILENT);
            } catch (Exception e) {
                // the session goes anyway when the client closes
            }
            latch = null;
        }
    }

    @Override
    public Epoch claimEpoch() throws CoordinationException {
        try {
            while (true) {
                Stat stat = new Stat();
                byte[] data;
                try {
                    data = zk.getData().storingStatIn(stat).forPath(layout.epoch());
                } catch (KeeperException.NoNodeException e) {
                    try {
                        zk.create().creatingParentContainersIfNeeded().forPath(layout.epoch(), longBytes(0));
                    } catch (KeeperException.NodeExistsException raced) {
                        // another scheduler created it first
                    }
                    continue;
                }
                long next = ByteBuffer.wrap(data).getLong() + 1;
                try {
                    Stat written = zk.setData().withVersion(stat.getVersion()).forPath(layout.epoch(), longBytes(next));
                    return new Epoch(next, written.getVersion());
                } catch (KeeperException.BadVersionException raced) {
                    // another scheduler claimed one meanwhile: claim the one after it
                }
            }
        } catch (Exception e) {
            throw failure(e, "claim an epoch");
        }
    }

    @Override
    public void confirm(Epoch epoch) throws CoordinationException {
        write(epoch, List.of());
    }

    /**
     * One ZooKeeper multi, sent once on the session's handle: not through Curator's retry loop,
     * which would send a request again after a lost reply and could apply it twice (a second log
     * record of one batch). A lost connection is an unknown outcome for the caller to settle.
     */
    @Override
    public List<String> write(Epoch epoch, List<Write> writes) throws CoordinationException {
        try {
            List<Op> ops = new ArrayList<>(writes.size() + 1);
            ops.add(Op.check(layout.epoch(), epoch.version()));
            for (Write write : writes) {
                ops.add(op(write));
            }
            List<OpResult> results = zk.getZookeeperClient().getZooKeeper().multi(ops);
            List<String> created = new ArrayList<>();
            for (int i = 1; i < results.size(); i++) {
                if (results.get(i) instanceof OpResult.CreateResult create) {
                    created.add(create.getPath());
                }
            }
            return created;
        } catch (KeeperException e) {
            if (epochCheckFailed(e)) {
                throw new CoordinationException(CoordinationException.Kind.FENCED, "ZooKeeper refused the write of epoch "
                        + epoch.number() + ": a newer leader claimed the epoch", e);
            }
            throw failure(e, "write " + writes.size() + " change(s)");
        } catch (Exception e) {
            throw failure(e, "write " + writes.size() + " change(s)");
        }
    }

    private Op op(Write write) {
        if (write instanceof Create create) {
            return Op.create(create.path(), create.data(), auth == null ? ZooDefs.Ids.OPEN_ACL_UNSAFE : ZkAuth.acl(),
                    mode(create));
        }
        if (write instanceof Put put) {
            return Op.setData(put.path(), put.data(), -1);
        }
        return Op.delete(write.path(), -1);
    }

    private static CreateMode mode(Create create) {
        if (create.ephemeral()) {
            return create.sequential() ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.EPHEMERAL;
        }
        return create.sequential() ? CreateMode.PERSISTENT_SEQUENTIAL : CreateMode.PERSISTENT;
    }

    /**
     * Whether the transaction failed at its first step, the epoch check: the epoch znode has another
     * version (a newer claim) or is gone.
     */
    private static boolean epochCheckFailed(KeeperException e) {
        List<OpResult> results = e.getResults();
        if (results != null && !results.isEmpty()) {
            return results.get(0) instanceof OpResult.ErrorResult first
                    && (first.getErr() == KeeperException.Code.BADVERSION.intValue()
                            || first.getErr() == KeeperException.Code.NONODE.intValue());
        }
        // no per-step results: only the check carries a version, so a bad version is the check's
        return e.code() == KeeperException.Code.BADVERSION;
    }

    @Override
    public byte[] read(String path) throws CoordinationException {
        try {
            return zk.getData().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return null;
        } catch (Exception e) {
            throw failure(e, "read " + path);
        }
    }

    @Override
    public List<String> children(String path) throws CoordinationException {
        try {
            return zk.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw failure(e, "list " + path);
        }
    }

    @Override
    public void ensurePath(String path) throws CoordinationException {
        try {
            zk.createContainers(path);
        } catch (Exception e) {
            throw failure(e, "create " + path);
        }
    }

    private static CoordinationException failure(Exception e, String what) {
        if (e instanceof KeeperException.ConnectionLossException || e instanceof KeeperException.OperationTimeoutException
                || e instanceof KeeperException.SessionExpiredException || e instanceof KeeperException.SessionMovedException) {
            return new CoordinationException(CoordinationException.Kind.OUTCOME_UNKNOWN, "ZooKeeper: the connection was lost "
                    + "while trying to " + what + "; whether it was done is unknown", e);
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        String hint = e instanceof KeeperException.NoAuthException ? " (the group's znodes belong to another identity: "
                + "give every scheduler of the group the same --zookeeper-auth-file)" : "";
        return new CoordinationException(CoordinationException.Kind.REFUSED, "ZooKeeper: cannot " + what + ": "
                + e.getMessage() + hint, e);
    }

    static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    @Override
    public void close() {
        leaveElection();
        zk.close();
    }
}
