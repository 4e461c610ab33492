package io.grove.cli;


import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.Playwright;
import io.grove.api.Explanation;
import io.grove.api.OperationSpecBody;
import io.grove.api.OperationSummary;
import io.grove.api.PoolView;
import io.grove.api.Quantity;
import io.grove.api.UsageReport;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.client.Target;
import io.grove.core.node.NodeTopology;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.grove.server.security.Security;
import io.grove.testing.Await;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The dashboard in a real headless browser (Debian's chromium driven by Playwright) against a real
 * scheduler and agents: the pool tree, an operation and the reason it waits, the chart, actions
 * under the ACLs in secure mode, and rows that keep their order across refreshes. Screenshots go to
 * {@code target/screenshots/} ({@code docs/dashboard.md} shows them).
 */
class DashboardTest {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                default_parent_pool: research
                topology_levels: [block, rack]
                pools:
                  prod:
                    weight: 2
                    strong_guarantee_resources: {cpu: 1}
                    pools:
                      etl: {}
                      serving: {}
                  adhoc: {max_running_operation_count: 1}
                  research: {create_ephemeral_subpools: true}
            """;

    @TempDir
    static Path dir;
    static LocalCommand.LocalCluster cluster;
    static Playwright playwright;
    static Browser browser;
    static String url;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(HeadlessChromium.available(), "the dashboard tests need Debian's chromium at "
                + HeadlessChromium.CHROMIUM);
        Files.writeString(dir.resolve("pools.yaml"), POOLS);
        cluster = LocalCommand.LocalCluster.start(dir.resolve("pools.yaml"), dir.resolve("data"), 2,
                LocalCommand.LocalCluster.agentResources(2), 0, 0,
                i -> NodeTopology.parse(i == 1 ? "block=b1,rack=r07" : "block=b1"));
        url = "http://127.0.0.1:" + cluster.httpPort();
        playwright = HeadlessChromium.playwright();
        browser = HeadlessChromium.launch(playwright);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (playwright != null) {
            playwright.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    static SchedulerClient as(String base, String user, String token) {
        return new SchedulerClient(new Target(URI.create(base), user, "test", token));
    }

    static OperationSpecBody spec(String pool, int jobs, double cpu, String command) {
        return OperationSpecBody.of(null, pool, new OperationSpecBody.Task(jobs, command, Quantity.of(cpu),
                Quantity.of("64Mi"), null, null, null));
    }

    static Page page() {
        return HeadlessChromium.page(browser);
    }

    static List<String> poolRows(Page page) {
        return page.locator("[data-test=pools] tbody tr[data-pool]").all().stream()
                .map(row -> row.getAttribute("data-pool")).toList();
    }

    @Test
    void aGangShowsItsRanksTheirNodesAndRankZerosPort() throws Exception {
        SchedulerClient alice = as(url, "alice", null);
        OperationSpecBody gang = new OperationSpecBody(null, "ranks", "etl", null, null, null, null, null, null, true,
                null, null, null, null, null, Map.of("main", new OperationSpecBody.Task(2, "sleep 30", Quantity.of(0.25),
                        Quantity.of("64Mi"), null, null, null)));
        OperationSummary op = alice.post("/operations", gang, OperationSummary.class);
        Page page = page();
        page.navigate(url + "/ui/#/operations/" + op.id());
        // other tests' jobs may hold the nodes for a while: the gang waits for room for both ranks at once
        assertThat(page.locator("[data-test=operation] [data-field=gang]")).containsText("running: 2 ranks (topology none)",
                new LocatorAssertions.ContainsTextOptions().setTimeout(90_000));
        assertThat(page.locator("[data-test=operation] [data-field=gang]")).containsText(", port 295");
        assertThat(page.locator("[data-test=ranks] tbody tr")).hasCount(2);
        assertThat(page.locator("[data-test=jobs] tbody tr").first()).containsText("(rank ");
        alice.post("/operations/" + op.id() + "/abort", null, null, OperationSummary.class);
        page.close();
    }

    @Test
    void thePagesFollowTheEventStream() throws Exception {
        SchedulerClient alice = as(url, "alice", null);
        Page page = page();
        page.navigate(url + "/ui/#/operations");
        page.waitForFunction("() => window.groveStream.open");
        int before = ((Number) page.evaluate("() => window.groveStream.events")).intValue();
        String id = alice.post("/operations", spec("adhoc", 1, 0.25, "sleep 30"), OperationSummary.class).id();
        page.waitForFunction("n => window.groveStream.events > n", before);
        assertThat(page.locator("[data-test=operations] tr[data-operation=\"" + id + "\"]")).isVisible();
        alice.post("/operations/" + id + "/abort", null, null, OperationSummary.class);
    }

    @Test
    void theNodesPageShowsEachNodesPlaceInTheTopologyAndTheLevelsItLacks() {
        Page page = page();
        page.navigate(url + "/ui/#/nodes");
        assertThat(page.locator("[data-test=nodes] tr[data-node=local-1] [data-test=topology]"))
                .hasText("block=b1/rack=r07");
        assertThat(page.locator("[data-test=nodes] tr[data-node=local-2] [data-test=topology]"))
                .hasText("block=b1; no rack");
    }

    @Test
    void theNodesPageShowsADrainedNodeAndWhy() throws Exception {
        SchedulerClient admin = as(url, "alice", null);
        admin.post("/nodes/local-2/drain", new io.grove.api.NodeDrainRequest("new disks", false), io.grove.api.NodeView.class);
        try {
            Page page = page();
            page.navigate(url + "/ui/#/nodes");
            assertThat(page.locator("[data-test=nodes] tr[data-node=local-2] [data-test=state]"))
                    .hasText("online, drained: new disks");
            assertThat(page.locator("[data-test=nodes] tr[data-node=local-2] [data-test=state]"))
                    .hasAttribute("title", java.util.regex.Pattern.compile("drained by alice since .*"));
            assertThat(page.locator("[data-test=nodes] tr[data-node=local-1] [data-test=state]")).hasText("online");
            page.close();
        } finally {
            admin.post("/nodes/local-2/undrain", null, null, io.grove.api.NodeView.class);
        }
    }

    @Test
    void thePoolTreeRendersInTreeOrderAndKeepsItsRowsInPlaceAcrossRefreshes() throws Exception {
        SchedulerClient alice = as(url, "alice", null);
        alice.post("/operations", spec("etl", 6, 0.25, "sleep 30"), OperationSummary.class);
        Page page = page();
        page.navigate(url + "/ui/");
        assertThat(page.locator("[data-test=pools] tr[data-pool=etl]")).isVisible();
        List<String> api = alice.list("/pool_trees/physical/pools", PoolView.class).stream().map(PoolView::name).toList();
        assertEquals(api, poolRows(page), "the rows are the API's pools, in tree order");
        assertTrue(api.containsAll(List.of("<Root>", "prod", "etl", "serving", "adhoc", "research")), api.toString());
        assertThat(page.locator("[data-pool=etl] td.name")).containsText("▸ etl");

        // shares move as jobs start; the rows stay where they are, refresh after refresh
        alice.post("/operations", spec("serving", 4, 0.25, "sleep 30"), OperationSummary.class);
        for (int i = 0; i < 3; i++) {
            page.reload();
            assertThat(page.locator("[data-test=pools] tr[data-pool=serving]")).isVisible();
            List<String> now = poolRows(page);
            assertEquals(api, now.stream().filter(api::contains).toList(), "refresh " + i);
        }
        page.close();
    }

    @Test
    void aPausedPoolSaysSoInTheTreeAndInItsDetail() throws Exception {
        SchedulerClient alice = as(url, "alice", null);
        alice.post("/pool_trees/physical/pools/adhoc/pause", new io.grove.api.PoolPauseRequest(true), PoolView.class);
        try {
            Page page = page();
            page.navigate(url + "/ui/#/pools/physical");
            Locator row = page.locator("[data-test=pools] tr[data-pool=adhoc]");
            assertThat(row.locator("[data-test=paused]")).hasText(" drained");
            row.click();
            assertThat(page.locator("[data-test=pause-note]")).containsText("pool adhoc is drained by alice");
            page.close();
        } finally {
            alice.post("/pool_trees/physical/pools/adhoc/resume", null, null, PoolView.class);
        }
    }

    @Test
    void aPoolExpandsToItsResourcesAndAChartOfItsLastHour() throws Exception {
        as(url, "alice", null).post("/operations", spec("prod", 2, 0.25, "sleep 20"), OperationSummary.class);
        Page page = page();
        page.navigate(url + "/ui/#/pools/physical");
        page.locator("[data-test=pools] tr[data-pool=prod]").click();
        Locator chart = page.locator("svg[data-test=chart]");
        assertThat(chart).isVisible();
        for (String series : List.of("fair", "usage", "demand")) {
            String points = chart.locator("polyline[data-series=" + series + "]").getAttribute("points");
            assertTrue(points != null && points.split(" ").length >= 2, series + ": " + points);
        }
        // the page redraws every 2 s: the chart ends at the pool's usage now, once its jobs run
        // (the last hour's chart: the 30 days' below it has a usage line of its own, from the hours its jobs used)
        assertThat(chart.locator("polyline[data-series=usage]")).not().hasAttribute("data-now", "0");
        double usageNow = Double.parseDouble(chart.locator("polyline[data-series=usage]").getAttribute("data-now"));
        PoolView prod = as(url, "alice", null).get("/pool_trees/physical/pools/prod", PoolView.class);
        assertTrue(usageNow > 0 && prod.shares().usageShare().dominant() > 0, "the chart ends at the pool's usage now: "
                + usageNow);
        assertThat(page.locator("[data-test=pool-resources]")).containsText("cpu");
        Files.createDirectories(Path.of("target/screenshots"));
        page.screenshot(new Page.ScreenshotOptions().setPath(Path.of("target/screenshots/pools.png")).setFullPage(true));
        page.close();
    }

    @Test
    void aSubmittedOperationAppearsWithThePendingReasonTheApiGives() throws Exception {
        SchedulerClient bob = as(url, "bob", null);
        // adhoc runs one operation at a time: the second waits behind the first
        OperationSummary first = bob.post("/operations", spec("adhoc", 1, 0.25, "sleep 60"), OperationSummary.class);
        OperationSummary huge = bob.post("/operations", spec("adhoc", 1, 0.25, "true"), OperationSummary.class);
        Page page = page();
        page.navigate(url + "/ui/#/operations?user=bob");
        Locator row = page.locator("[data-test=operations] tr[data-operation=" + huge.id() + "]");
        assertThat(row).isVisible();
        OperationSummary seen = bob.get("/operations/" + huge.id(), io.grove.api.OperationDetails.class).summary();
        assertTrue(seen.pendingReason() != null, "the API says why it waits");
        assertThat(row.locator("[data-test=reason]")).hasText("queued #" + seen.pendingReason().queuePosition() + " in "
                + seen.pendingReason().pool() + ": at max_running_operation_count " + seen.pendingReason().limit());

        row.locator("a").click();
        java.util.concurrent.atomic.AtomicReference<Explanation> explained = new java.util.concurrent.atomic.AtomicReference<>();
        Await.until("a fair share for the explanation", Await.unchecked(() -> {
            explained.set(bob.get("/operations/" + huge.id() + "/explain", Explanation.class));
            return !explained.get().trees().get(0).verdict().equals("no_fair_share_yet");
        }));
        Explanation explanation = explained.get();
        assertEquals("count_limit", explanation.trees().get(0).verdict());
        assertThat(page.locator("[data-test=verdict]")).hasText(explanation.trees().get(0).verdict().replace('_', ' '));
        assertThat(page.locator("[data-test=explain] li.blocks")).containsText("position 1 in its queue");
        page.screenshot(new Page.ScreenshotOptions().setPath(Path.of("target/screenshots/operation.png")).setFullPage(true));
        page.close();
        bob.post("/operations/" + huge.id() + "/abort", null, null, OperationSummary.class);
        bob.post("/operations/" + first.id() + "/abort", null, null, OperationSummary.class);
    }

    @Test
    void inSecureModeTheOwnerMayAbortAndAnotherUserIsRefused(@TempDir Path secure) throws Exception {
        String aliceToken = "alice-token-0123456789abcdef";
        String bobToken = "bob-token-0123456789abcdef";
        // with cluster admins named, only an operation's owner, its pool's administrators and the admins may change it
        Files.writeString(secure.resolve("pools.yaml"), "admins: [root-admin]\n" + POOLS);
        Files.writeString(secure.resolve("tokens.yaml"), "tokens:\n  - {token: " + aliceToken + ", user: alice}\n"
                + "  - {token: " + bobToken + ", user: bob}\n");
        Files.writeString(secure.resolve("node-token"), "node-token-0123456789abcdef\n");
        DaemonSettings settings = DaemonSettings.defaults(secure.resolve("pools.yaml"), secure.resolve("data"))
                .withPorts(0, 0).withSecurity(new Security(false, secure.resolve("tokens.yaml"),
                        secure.resolve("node-token"), null));
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            String base = "http://127.0.0.1:" + daemon.httpPort();
            OperationSummary op = as(base, "alice", aliceToken).post("/operations", spec("etl", 2, 1, "sleep 5"),
                    OperationSummary.class);
            Page page = page();
            page.navigate(base + "/ui/#/operations/" + op.id());
            assertThat(page.locator("#login")).isVisible();
            page.locator("[data-test=token]").fill(aliceToken);
            page.locator("[data-test=login]").click();
            // an abort is confirmed first: dismissed, nothing is sent
            page.onceDialog(dialog -> {
                assertTrue(dialog.message().startsWith("Abort " + op.id() + "?"), dialog.message());
                dialog.dismiss();
            });
            page.locator("[data-test=abort]").click();
            assertThat(page.locator("[data-test=message]")).hasText(op.id() + " not aborted");
            assertThat(page.locator("[data-test=operation] [data-field=state]")).hasText("running");
            page.onDialog(dialog -> dialog.accept());
            page.locator("[data-test=forget]").click();
            assertThat(page.locator("#login")).isVisible();
            page.locator("[data-test=token]").fill(bobToken);
            page.locator("[data-test=login]").click();
            assertThat(page.locator("[data-test=operation] [data-field=state]")).hasText("running");
            page.locator("[data-test=abort]").click();
            assertThat(page.locator("[data-test=message]")).containsText("FORBIDDEN");
            assertThat(page.locator("[data-test=operation] [data-field=state]")).hasText("running");

            page.locator("[data-test=forget]").click();
            assertThat(page.locator("#login")).isVisible();
            page.locator("[data-test=token]").fill(aliceToken);
            page.locator("[data-test=login]").click();
            page.locator("[data-test=abort]").click();
            assertThat(page.locator("[data-test=message]")).hasText(op.id() + " aborted");
            assertThat(page.locator("[data-test=operation] [data-field=state]")).hasText("aborted");
            assertFalse(page.evaluate("() => JSON.stringify(window.localStorage)").toString().contains(aliceToken),
                    "the token is kept for the tab only");
            page.close();
        }
    }

    @Test
    void readOnlyAnAbortAsksWhoYouAreAndSendsNothing() throws Exception {
        SchedulerClient alice = as(url, "alice", null);
        String id = alice.post("/operations", spec("adhoc", 1, 0.25, "sleep 30"), OperationSummary.class).id();
        try {
            Page page = page();
            page.navigate(url + "/ui/#/operations/" + id);
            page.locator("[data-test=abort]").click();
            assertThat(page.locator("#login")).isVisible();
            assertThat(page.locator("[data-test=message]")).hasText("choose who you are first: nothing was sent");
            assertFalse(alice.get("/operations/" + id, io.grove.api.OperationDetails.class).summary().state()
                    .equals("aborted"));
            page.close();
        } finally {
            alice.post("/operations/" + id + "/abort", null, null, OperationSummary.class);
        }
    }

    @Test
    void theLastHourIsScaledToFairShareAndUsageWithAHighDemandAlongTheTop() {
        Page page = page();
        page.navigate(url + "/ui/#/pools");
        // the page's own chart function, fed a pool that demands fifteen times what it gets
        Object drawn = page.evaluate("() => { const c = chart({pool: 'p', interval_seconds: 10, samples: ["
                + "{at: '2026-11-28T10:00:00Z', fair_share: 0.1, usage_share: 0.08, demand_share: 1.5}]},"
                + " {at: '2026-11-28T10:00:10Z', fair_share: 0.1, usage_share: 0.1, demand_share: 1.5});"
                + " const usage = c.querySelector('polyline[data-series=usage]').getAttribute('points').split(' ')"
                + "   .map((p) => Number(p.split(',')[1]));"
                + " return { legend: c.querySelector('[data-test=demand-legend]').textContent, top: Math.min(...usage) }; }");
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) drawn;
        assertEquals("- - demand (up to 150%, above the chart)", result.get("legend"));
        assertTrue(((Number) result.get("top")).doubleValue() < 60, "usage at 10% is drawn high in the chart, not "
                + "flat at its bottom: y = " + result.get("top"));
        page.close();
    }

    @Test
    void aNarrowWindowScrollsWideTablesNotThePage() {
        Page page = browser.newPage(new Browser.NewPageOptions().setViewportSize(760, 900));
        page.setDefaultTimeout(20_000);
        for (String view : List.of("pools", "operations", "nodes", "usage")) {
            page.navigate(url + "/ui/#/" + view);
            page.locator("main table").first().waitFor();
            Number wide = (Number) page.evaluate("() => document.documentElement.scrollWidth");
            assertTrue(wide.intValue() <= 760, view + ": the page is " + wide + " px wide in a 760-px window");
        }
        page.close();
    }

    /** The scheduler's accounting database, to write what a month of metering would have. */
    static java.sql.Connection accounting() throws Exception {
        try (var found = Files.walk(dir.resolve("data"))) {
            Path db = found.filter(p -> p.getFileName().toString().equals("accounting.db")).findFirst().orElseThrow();
            return java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
        }
    }

    /** Today's first second, UTC, as the daily rows key it. */
    static long today() {
        return java.time.LocalDate.now(java.time.ZoneOffset.UTC).atStartOfDay(java.time.ZoneOffset.UTC).toEpochSecond();
    }

    @Test
    void aPoolWithOneDayOfUsageIsDrawnAsPointsAndOneWithNoneIsSaid() throws Exception {
        long today = today();
        try (var connection = accounting();
                var insert = connection.prepareStatement("INSERT INTO pool_days (tree, pool, day, kind, user_slots, cpu, gpu, "
                        + "memory, network) VALUES ('physical', 'serving', ?, 'fair_share', 0, 7200, 0, 0, 0) "
                        + "ON CONFLICT (tree, pool, day, kind) DO UPDATE SET cpu = pool_days.cpu + 7200")) {
            insert.setLong(1, today);
            insert.executeUpdate();
        }
        Page page = page();
        page.navigate(url + "/ui/#/usage?resource=gpu&days=1");
        // no pool used a GPU: said, not a wall of empty frames
        assertThat(page.locator("[data-test=no-usage]").first()).isVisible();
        assertEquals(0, page.locator("svg[data-test=usage-chart]").count());
        page.navigate(url + "/ui/#/usage?resource=cpu&days=1");
        // one day: a point per series
        assertThat(page.locator("svg[data-test=usage-chart] circle").first()).isVisible();
        page.close();
    }

    @Test
    void theUsagePageDrawsEachPoolsDaysAgainstItsGuaranteeAndOffersThemAsCsv() throws Exception {
        long today = today();
        try (var connection = accounting();
                var insert = connection.prepareStatement("INSERT INTO pool_days (tree, pool, day, kind, user_slots, cpu, gpu, "
                        + "memory, network) VALUES ('physical', 'serving', ?, ?, 0, ?, 0, 0, 0)")) {
            for (int d = 1; d <= 3; d++) {
                insert.setLong(1, today - d * 86_400L);
                insert.setString(2, "used");
                insert.setDouble(3, d * 10 * 3600.0);
                insert.addBatch();
                insert.setLong(1, today - d * 86_400L);
                insert.setString(2, "strong_guarantee");
                insert.setDouble(3, 24 * 4 * 3600.0);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        Page page = page();
        page.navigate(url + "/ui/#/usage");
        Locator row = page.locator("[data-test=usage] tr[data-pool='physical:serving']");
        assertThat(row.locator("td[data-kind=used]")).hasText("60.0");
        assertThat(row.locator("td[data-kind=strong_guarantee]")).hasText("288.0");
        // the same numbers as grove usage gives (its report: the same period, not per day)
        UsageReport report = as(url, "carol", null).get("/usage?by=pool&pool=serving&since=30d", UsageReport.class);
        assertEquals(60.0, report.rows().get(0).hours().get("used").get("cpu"), 0.05, report.toString());
        assertEquals(288.0, report.rows().get(0).hours().get("strong_guarantee").get("cpu"), 0.05, report.toString());
        assertThat(page.locator("svg[data-test=usage-chart]").first()).isVisible();
        com.microsoft.playwright.Download download = page.waitForDownload(() -> page.locator("[data-test=usage-csv]").click());
        String csv = Files.readString(download.path());
        assertTrue(csv.startsWith("tree,pool,day,resource,used,fair_share,strong_guarantee"), csv);
        assertTrue(csv.contains("physical,serving," + java.time.LocalDate.now(java.time.ZoneOffset.UTC).minusDays(1)
                + ",cpu,10,0,96,0,0"), csv);
        page.close();
    }
}
