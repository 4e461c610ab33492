package io.grove.cli;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Debian's chromium, headless, driven by Playwright: for the dashboard's tests and the cluster tests that look at it. */
final class HeadlessChromium {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private HeadlessChromium() {
    }

    /** Whether Debian's chromium is here (the browser tests are skipped, or their look left out, where not). */
    static boolean available() {
        return Files.isExecutable(CHROMIUM);
    }

    /**
     * Playwright, its driver unpacked to a new folder and started. Started while the cluster in the
     * same JVM forks jobs, the driver's exec can fail with ETXTBSY ("Text file busy": a child forked
     * while the driver was still open for writing holds it until the child execs); that is retried.
     */
    static Playwright playwright() {
        for (int attempt = 1;; attempt++) {
            try {
                return Playwright.create(new Playwright.CreateOptions()
                        .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
            } catch (PlaywrightException e) {
                boolean busy = false;
                for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                    busy |= String.valueOf(cause.getMessage()).contains("Text file busy");
                }
                if (!busy || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /** Debian's chromium, headless, under {@code playwright}. */
    static Browser launch(Playwright playwright) {
        return playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(CHROMIUM)
                .setHeadless(true).setArgs(List.of("--no-sandbox", "--disable-gpu")));
    }

    /** A new page of {@code browser}, 1280 × 900, waiting at most 20 s for what it is asked. */
    static Page page(Browser browser) {
        Page page = browser.newPage(new Browser.NewPageOptions().setViewportSize(1280, 900));
        page.setDefaultTimeout(20_000);
        return page;
    }

    /**
     * Runs {@code check} on a page of a headless chromium of its own, for the cluster tests that look
     * at the dashboard too; nothing where Debian's chromium is missing (DashboardTest says it is skipped).
     */
    static void inBrowser(Consumer<Page> check) {
        if (!available()) {
            return;
        }
        try (Playwright own = playwright(); Browser chromium = launch(own)) {
            check.accept(page(chromium));
        }
    }
}
