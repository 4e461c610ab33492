package io.grove.agent.job;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps jobs off the control plane: an nftables table of the agent's own whose output chain rejects
 * TCP connections from the job uids ({@code meta skuid}) to the schedulers' node ports, to the other
 * control-plane addresses the node is told of ({@code --control-plane}: ZooKeeper, the accounting
 * database), and to this agent's own HTTP and broker ports on any of the node's addresses. Jobs keep
 * the node's network otherwise (gang ranks reach each other, jobs reach the API and the internet as
 * the site allows). The table is made whole in one {@code nft -f} transaction, replacing the table
 * of a previous run, and removed when the agent stops.
 */
public final class JobFirewall implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobFirewall.class);

    /** Where {@code nft} may be: the system's own directories. */
    static final List<Path> NFT = List.of(Path.of("/usr/sbin/nft"), Path.of("/sbin/nft"));

    /** A TCP endpoint jobs may not reach: a host's addresses and a port. */
    public record Endpoint(String host, int port) {

        /** {@code HOST:PORT} (an IPv6 host in brackets). */
        public static Endpoint parse(String text) {
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                throw new IllegalArgumentException("a control-plane address is HOST:PORT, got '" + text + "'");
            }
            String host = text.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535 || !host.matches("[A-Za-z0-9.:_-]{1,253}")) {
                throw new IllegalArgumentException("a control-plane address is HOST:PORT with a port of 1..65535, got '"
                        + text + "'");
            }
            return new Endpoint(host, port);
        }
    }

    private final Path nft;
    private final String table;

    private JobFirewall(Path nft, String table) {
        this.nft = nft;
        this.table = table;
    }

    /**
     * Closes the control plane to the jobs of {@code users} ({@code null} when they are the agent's
     * own, the firewall is turned off, or {@code nft} is not installed: then it warns): the
     * schedulers' node ports, the {@code --control-plane} addresses, and {@code localPorts} (the
     * agent's HTTP and broker ports) on every address of the node. Its table is named after the work
     * directory.
     *
     * @throws IOException if the table cannot be installed (no job starts on a node that meant to have one)
     */
    public static JobFirewall forJobs(JobUsers users, JobNetwork network, List<String> schedulers,
            List<Integer> localPorts, Path workDir) throws IOException {
        if (!users.switching()) {
            return null;
        }
        Path nft = network.firewall() ? locateNft() : null;
        if (nft == null) {
            LOG.warn("{}: jobs can reach the schedulers' node ports, ZooKeeper, the accounting database and this "
                    + "agent's ports", network.firewall() ? "nft is not installed (package nftables)" : "--no-job-firewall");
            return null;
        }
        List<Endpoint> closed = new ArrayList<>();
        schedulers.forEach(s -> closed.add(Endpoint.parse(s)));
        network.controlPlane().forEach(s -> closed.add(Endpoint.parse(s)));
        String table = "grove_" + Integer.toHexString(workDir.toAbsolutePath().normalize().toString().hashCode());
        JobFirewall installed = install(nft, table, users.users().stream().map(JobUsers.User::uid).toList(), closed,
                localPorts);
        LOG.info("jobs may not reach {} nor this node's ports {} (nftables table inet {})", closed, localPorts, table);
        return installed;
    }

    /** {@code nft} as root may run it, or {@code null} when it is not installed. */
    public static Path locateNft() throws IOException {
        for (Path candidate : NFT) {
            if (Files.isExecutable(candidate)) {
                return SystemPrograms.locate(List.of(candidate), "nftables", true);
            }
        }
        return null;
    }

    /**
     * Installs the table {@code table} for {@code uids}.
     *
     * @param remote endpoints closed to jobs wherever they are (each host's every address)
     * @param localPorts ports closed to jobs on every address of this node
     * @throws IOException if a host cannot be resolved or {@code nft} refuses the table
     */
    public static JobFirewall install(Path nft, String table, List<Integer> uids, List<Endpoint> remote,
            List<Integer> localPorts) throws IOException {
        JobFirewall firewall = new JobFirewall(nft, table);
        firewall.run(script(table, uids, resolve(remote), localPorts));
        return firewall;
    }

    /** Each endpoint's addresses, as {@code nft} names them: {@code ip daddr A} or {@code ip6 daddr A}, and the port. */
    static List<String> resolve(List<Endpoint> endpoints) throws IOException {
        List<String> matches = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            InetAddress[] addresses;
            try {
                addresses = InetAddress.getAllByName(endpoint.host());
            } catch (UnknownHostException e) {
                throw new IOException("cannot resolve the control-plane host " + endpoint.host() + " to keep jobs off it");
            }
            for (InetAddress address : addresses) {
                String family = address instanceof Inet6Address ? "ip6" : "ip";
                String match = family + " daddr " + address.getHostAddress().replaceAll("%.*$", "") + " tcp dport "
                        + endpoint.port();
                if (!matches.contains(match)) {
                    matches.add(match);
                }
            }
        }
        return matches;
    }

    /** The table as one {@code nft -f} script: made anew (a previous run's replaced), in one transaction. */
    static String script(String table, List<Integer> uids, List<String> remote, List<Integer> localPorts) {
        String who = "meta skuid " + uidSet(uids);
        StringBuilder script = new StringBuilder();
        script.append("table inet ").append(table).append("\n");
        script.append("delete table inet ").append(table).append("\n");
        script.append("table inet ").append(table).append(" {\n");
        script.append("  chain output {\n");
        script.append("    type filter hook output priority 0; policy accept;\n");
        if (!localPorts.isEmpty()) {
            script.append("    ").append(who).append(" fib daddr type local tcp dport { ")
                    .append(String.join(", ", new TreeSet<>(localPorts).stream().map(String::valueOf).toList()))
                    .append(" } reject with tcp reset\n");
        }
        for (String match : remote) {
            script.append("    ").append(who).append(' ').append(match).append(" reject with tcp reset\n");
        }
        script.append("  }\n}\n");
        return script.toString();
    }

    /** The uids as an nftables set of ranges: {@code { 43000-43009, 43020 }}. */
    static String uidSet(List<Integer> uids) {
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(uids));
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < sorted.size();) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            parts.add(i == j ? String.valueOf(sorted.get(i)) : sorted.get(i) + "-" + sorted.get(j));
            i = j + 1;
        }
        return "{ " + String.join(", ", parts) + " }";
    }

    private void run(String script) throws IOException {
        Process process = SystemPrograms.fixed(List.of(nft.toString(), "-f", "-")).redirectErrorStream(true).start();
        process.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String said = new String(process.getInputStream().readNBytes(8192), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("nft did not finish within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running nft", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("nft refused the jobs' firewall (table inet " + table + "): " + said.strip());
        }
    }

    /** Removes the table (the agent stops). */
    @Override
    public void close() {
        try {
            run("table inet " + table + "\ndelete table inet " + table + "\n");
        } catch (IOException e) {
            // the next start replaces it
        }
    }
}
