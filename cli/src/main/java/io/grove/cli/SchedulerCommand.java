package io.grove.cli;

import io.grove.config.yaml.Durations;
import io.grove.core.cluster.ClusterSettings;
import io.grove.http.HttpLimits;
import io.grove.protocol.Tls;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.grove.server.SchedulerMain;
import io.grove.server.accounting.AccountingSettings;
import io.grove.server.coord.ZkAuth;
import io.grove.server.ha.HaSettings;
import io.grove.server.security.Oidc;
import io.grove.server.security.Security;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code grove scheduler}: the scheduler daemon. */
@Command(
        name = "scheduler",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the scheduler daemon.",
            "",
            "Nodes connect on the node port, users and tools use the HTTP API. Every setting is a flag; put them in a "
                    + "file and run 'grove scheduler @FILE' to keep them there.",
            "",
            "State is journaled in the data directory and revived after a restart; the pools file is "
                    + "reloaded when it changes, on SIGHUP, or on POST /api/v1/config/reload. Stop with SIGTERM "
                    + "or Ctrl-C.",
            "",
            "Example: grove scheduler --config config/pools.yaml --data-dir /var/lib/grove --bind 0.0.0.0"})
final class SchedulerCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the pools file")
    Path config;

    @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "where the journal lives")
    Path dataDir;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "address to listen on (default: ${DEFAULT-VALUE})")
    String bind;

    @Option(names = "--node-port", defaultValue = "7077", description = "node endpoint port (default: ${DEFAULT-VALUE})")
    int nodePort;

    @Option(names = "--http-port", defaultValue = "8080", description = "HTTP API port (default: ${DEFAULT-VALUE})")
    int httpPort;

    @Option(names = "--heartbeat-period", defaultValue = "1s", description = "period nodes heartbeat at (default: ${DEFAULT-VALUE})")
    String heartbeatPeriod;

    @Option(names = "--fair-share-update-period", defaultValue = "200ms",
            description = "period of fair-share updates (default: ${DEFAULT-VALUE})")
    String updatePeriod;

    @Option(names = "--node-heartbeat-timeout", defaultValue = "60s",
            description = "a silent node goes offline after this (default: ${DEFAULT-VALUE})")
    String heartbeatTimeout;

    @Option(names = "--node-registration-timeout", defaultValue = "600s",
            description = "a silent node's jobs are aborted after this (default: ${DEFAULT-VALUE})")
    String registrationTimeout;

    @Option(names = "--gang-start-timeout", defaultValue = "30s", paramLabel = "DURATION",
            description = "how long a gang's plan waits for every planned node to take its ranks before it is dropped "
                    + "whole and the gang planned again (default: ${DEFAULT-VALUE})")
    String gangStartTimeout;

    @Option(names = "--tokens-file", paramLabel = "FILE",
            description = "users' bearer tokens (token -> user, groups); reloaded when it changes. Required unless --insecure-local or --oidc-issuer")
    Path tokensFile;

    @Option(names = "--oidc-issuer", paramLabel = "URL",
            description = "JWT sign-in: the identity provider's issuer (the tokens' iss); its keys are found through "
                    + "URL/.well-known/openid-configuration unless --jwks says where")
    String oidcIssuer;

    @Option(names = "--oidc-audience", paramLabel = "NAME",
            description = "JWT sign-in: what the tokens' aud must name (this scheduler); required with --oidc-issuer")
    String oidcAudience;

    @Option(names = "--jwks", paramLabel = "FILE|URL",
            description = "JWT sign-in: the identity provider's public keys (a JWK set), a file reread when it changes "
                    + "or an http(s) URL fetched again when a token names a key not known")
    String jwks;

    @Option(names = "--oidc-user-claim", paramLabel = "CLAIM", defaultValue = "sub",
            description = "the claim that names the user (default: ${DEFAULT-VALUE}; often preferred_username or email)")
    String oidcUserClaim;

    @Option(names = "--oidc-groups-claim", paramLabel = "CLAIM", defaultValue = "groups",
            description = "the claim that lists the user's groups, which pool ACLs name as group:NAME (default: ${DEFAULT-VALUE})")
    String oidcGroupsClaim;

    @Option(names = "--oidc-clock-skew", paramLabel = "DURATION", defaultValue = "60s",
            description = "how far the identity provider's clock may be off when expiry is checked (default: ${DEFAULT-VALUE})")
    String oidcClockSkew;

    @Option(names = "--node-token-file", paramLabel = "FILE", description = "the cluster's node token; nodes without it are refused")
    Path nodeTokenFile;

    @Option(names = "--insecure-local",
            description = "no authentication: the user is whatever X-Grove-User says; loopback only (grove local runs so)")
    boolean insecureLocal;

    @Option(names = "--allow-unauthenticated-nodes",
            description = "listening beyond loopback, accept nodes with neither a node token nor mutual TLS "
                    + "(refused by default)")
    boolean allowUnauthenticatedNodes;

    @Option(names = "--max-node-connections-per-address", paramLabel = "N", defaultValue = "16",
            description = "connections one address may hold on the node port (a node needs one; raise it for nodes "
                    + "behind one NAT address) (default: ${DEFAULT-VALUE})")
    int nodeConnectionsPerAddress;

    @Option(names = "--max-http-connections", paramLabel = "N", defaultValue = "1024",
            description = "connections the API port holds; beyond it the oldest that has not sent an authenticated "
                    + "request is shed (default: ${DEFAULT-VALUE})")
    int httpConnections;

    @Option(names = "--max-http-connections-per-address", paramLabel = "N", defaultValue = "64",
            description = "connections one address may hold on the API port (raise it for users behind one NAT "
                    + "address) (default: ${DEFAULT-VALUE})")
    int httpConnectionsPerAddress;

    @Option(names = "--node-tls-cert", paramLabel = "PEM", description = "TLS on the node port: the scheduler's certificate")
    Path nodeTlsCert;

    @Option(names = "--node-tls-key", paramLabel = "PEM", description = "its private key (PKCS#8)")
    Path nodeTlsKey;

    @Option(names = "--node-tls-ca", paramLabel = "PEM",
            description = "mutual TLS: nodes must present a certificate signed by this CA")
    Path nodeTlsCa;

    @Option(names = "--http-tls-cert", paramLabel = "PEM", description = "HTTPS on the API: the certificate")
    Path httpTlsCert;

    @Option(names = "--http-tls-key", paramLabel = "PEM", description = "its private key (PKCS#8)")
    Path httpTlsKey;

    @Option(names = "--audit-log", paramLabel = "FILE", description = "the audit log (default: DATA_DIR/audit.log)")
    Path auditLog;

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "high availability: run as one of a group of schedulers coordinated by this ZooKeeper; "
                    + "the state goes to ZooKeeper instead of DATA_DIR/journal (docs/ha.md)")
    String zookeeper;

    @Option(names = "--zookeeper-root", defaultValue = "/grove", paramLabel = "PATH",
            description = "where the group keeps its state in ZooKeeper (default: ${DEFAULT-VALUE})")
    String zookeeperRoot;

    @Option(names = "--zookeeper-auth-file", paramLabel = "FILE",
            description = "the schedulers' ZooKeeper identity, one line USER:PASSWORD (mode 0600): the session "
                    + "authenticates with it and every znode of the group is created for it alone. Required with "
                    + "--zookeeper unless --insecure-local")
    Path zookeeperAuthFile;

    @Option(names = "--zookeeper-session-timeout", defaultValue = "6s",
            description = "a leader cut from ZooKeeper steps down within two thirds of it; a standby takes over after "
                    + "it (default: ${DEFAULT-VALUE})")
    String sessionTimeout;

    @Option(names = "--advertise", paramLabel = "HOST",
            description = "the host clients and agents reach this scheduler at, told to them by standbys "
                    + "(default: the --bind address, or this machine's name when binding every address)")
    String advertise;

    @Option(names = "--accounting-db", paramLabel = "URL", description = "where the job ledger and the pools' metering "
            + "live: jdbc:postgresql://HOST:PORT/DB (every scheduler of a group names the same) or jdbc:sqlite:PATH "
            + "(default: SQLite in DATA_DIR/accounting.db)")
    String accountingDb;

    @Option(names = "--accounting-user", paramLabel = "USER", description = "the accounting database's user")
    String accountingUser;

    @Option(names = "--accounting-password-file", paramLabel = "FILE", description = "a file holding its password (0600)")
    Path accountingPasswordFile;

    @Option(names = "--accounting-retention", defaultValue = "90d", paramLabel = "DURATION",
            description = "how long job and operation records are kept; hourly usage is kept (default: ${DEFAULT-VALUE})")
    String accountingRetention;

    @Option(names = "--no-accounting", description = "keep no job ledger and no metering")
    boolean noAccounting;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** JWT sign-in as the options say, or {@code null} without --oidc-issuer. */
    private Oidc oidc() {
        if (oidcIssuer == null) {
            if (oidcAudience != null || jwks != null) {
                throw new IllegalArgumentException("--oidc-audience and --jwks need --oidc-issuer (the tokens' iss)");
            }
            return null;
        }
        return new Oidc(oidcIssuer, jwks, oidcAudience, oidcUserClaim, oidcGroupsClaim,
                Durations.parse(oidcClockSkew), null);
    }

    @Override
    public Integer call() throws Exception {
        DaemonSettings settings;
        try {
            DaemonSettings defaults = DaemonSettings.defaults(config, dataDir);
            settings = defaults.withBindAddress(bind).withPorts(nodePort, httpPort)
                    .withPeriods(Durations.parse(heartbeatPeriod), Durations.parse(updatePeriod))
                    .withCluster(new ClusterSettings(Durations.parse(heartbeatTimeout), Durations.parse(registrationTimeout))
                            .withGangStartTimeout(Durations.parse(gangStartTimeout)))
                    .withSecurity(new Security(insecureLocal, tokensFile, nodeTokenFile, auditLog)
                            .withTls(nodeTlsCert == null ? null : new Tls(nodeTlsCert, nodeTlsKey, nodeTlsCa),
                                    httpTlsCert == null ? null : new Tls(httpTlsCert, httpTlsKey, null))
                            .withUnauthenticatedNodes(allowUnauthenticatedNodes)
                            .withOidc(oidc()))
                    .withNodeConnectionsPerAddress(nodeConnectionsPerAddress)
                    .withHttpLimits(HttpLimits.API.withConnections(httpConnections, httpConnectionsPerAddress))
                    .withAccounting(new AccountingSettings(accountingDb, accountingUser,
                            accountingPasswordFile, Durations.parse(accountingRetention), !noAccounting));
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("grove scheduler: " + e.getMessage());
            return 2;
        }
        try {
            if (zookeeper == null) {
                SchedulerMain.run(settings);
            } else {
                String host = advertise != null ? advertise : bind.equals("0.0.0.0") || bind.equals("::")
                        ? InetAddress.getLocalHost().getCanonicalHostName() : bind;
                String scheme = settings.security().httpTls() == null ? "http" : "https";
                HaSettings ha;
                try {
                    if (zookeeperAuthFile == null && !insecureLocal) {
                        throw new IllegalArgumentException("--zookeeper needs --zookeeper-auth-file FILE (the schedulers' "
                                + "identity in ZooKeeper: one line USER:PASSWORD, mode 0600), or --insecure-local for a "
                                + "group whose state any client of the ensemble may change");
                    }
                    ha = new HaSettings(zookeeper, zookeeperRoot, Durations.parse(sessionTimeout),
                            scheme + "://" + host + ":" + httpPort, host + ":" + nodePort,
                            zookeeperAuthFile == null ? null : ZkAuth.read(zookeeperAuthFile));
                } catch (IllegalArgumentException | IOException e) {
                    spec.commandLine().getErr().println("grove scheduler: " + e.getMessage());
                    return 2;
                }
                SchedulerMain.run(settings, ha);
            }
            return 0;
        } catch (SchedulerDaemon.DaemonException e) {
            spec.commandLine().getErr().println("grove scheduler: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return 1;
        }
    }
}
