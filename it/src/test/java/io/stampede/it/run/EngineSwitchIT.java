/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.StampedeCommand;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.ShopSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14's switch end to end against real nginx: the unchanged plans/recorded-shop.jmx runs on the Stampede
 * engine with `stampede run --engine stampede`, on stock with `--engine stock`, and with plain `jmeter -n` plus the
 * switch jar on search_paths; a converted plan runs back on stock; a plan without HTTP Requests says so once. The
 * plan file is never written. JMeter's own log line ("Upgrading class ... to ...") says which class it created.
 */
class EngineSwitchIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final Path SHOP = ROOT.resolve("plans/recorded-shop.jmx");
    private static final String TO_STAMPEDE = "Upgrading class org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy"
            + " to io.stampede.httprequest.EngineHttpRequest";
    private static final String TO_STOCK = "Upgrading class io.stampede.httprequest.EngineHttpRequest to"
            + " org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy";
    private static final Set<String> LABELS = Set.of("/test.txt (home)", "/test.txt?product (view)",
            "/test.txt (login POST)");

    private static NginxServer nginx;

    @BeforeAll
    static void startNginx() {
        nginx = NginxServer.start(ShopSite.nginx());
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void theUnchangedShopPlanRunsOnEitherEngineAndTheFileIsNotWritten(@TempDir Path tmp) throws Exception {
        byte[] before = Files.readAllBytes(SHOP);
        long modified = Files.getLastModifiedTime(SHOP).toMillis();

        Path onStampede = tmp.resolve("stampede");
        StampedeRunIT.Result s = shop(SHOP, onStampede, "stampede");
        assertEquals(0, s.exit(), s.describe());
        assertEquals(1, count(s.stdout(), "stampede run: engine stampede: 3 HTTP Requests of recorded-shop.jmx run on"
                + " Netty engine (EngineHttpRequest) (the file is not changed)"), s.stdout());
        String log = Files.readString(onStampede.resolve("jmeter.log"));
        assertTrue(log.contains(TO_STAMPEDE), "JMeter created Stampede's HTTP Request");
        assertFalse(log.contains("is not supported by the Stampede engine"), "no request fell back to HC4");
        assertShopRan(onStampede);

        Path onStock = tmp.resolve("stock");
        StampedeRunIT.Result k = shop(SHOP, onStock, "hc4");
        assertEquals(0, k.exit(), k.describe());
        assertTrue(k.stdout().contains("stampede run: engine stock: the 3 HTTP Requests of recorded-shop.jmx already"
                + " use JMeter's HTTP Request (HttpClient4), nothing to switch"), k.stdout());
        assertFalse(Files.readString(onStock.resolve("jmeter.log")).contains(TO_STAMPEDE), "nothing switched");
        assertShopRan(onStock);

        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(SHOP)), "the plan file is unchanged");
        assertEquals(modified, Files.getLastModifiedTime(SHOP).toMillis(), "and was not rewritten");
    }

    @Test
    void aConvertedPlanRunsBackOnStockAndPlainJMeterTakesTheSwitchJar(@TempDir Path tmp) throws Exception {
        // The converted copy sits beside the CSV it reads, as a user's would.
        Files.copy(ROOT.resolve("plans/recorded-shop-users.csv"), tmp.resolve("recorded-shop-users.csv"));
        Path converted = tmp.resolve("shop-stampede.jmx");
        assertEquals(0, StampedeCommand.commandLine().execute("convert", SHOP.toString(), "-o", converted.toString()));
        Path out = tmp.resolve("converted-on-stock");
        StampedeRunIT.Result r = shop(converted, out, "stock");
        assertEquals(0, r.exit(), r.describe());
        assertTrue(r.stdout().contains("engine stock: 3 HTTP Requests of shop-stampede.jmx run on JMeter's HTTP"
                + " Request (HttpClient4)"), r.stdout());
        assertTrue(Files.readString(out.resolve("jmeter.log")).contains(TO_STOCK));
        assertShopRan(out);

        // Plain JMeter: the documented opt-in is the switch jar on one run's search_paths.
        Path plain = tmp.resolve("plain");
        JMeterRun.Result run = JMeterRun.of(JMeterHome.fromStampedeRoot(), SHOP, plain)
                .property("search_paths", ROOT.resolve("src/target/jmeter-home/switch/stampede-switch-to-stampede.jar"))
                .property("host", nginx.host()).property("port", nginx.port())
                .property("threads", 4).property("duration", 4).property("rampup", 0)
                .timeout(Duration.ofSeconds(120)).run();
        assertTrue(run.succeeded(), run.describe());
        assertTrue(Files.readString(run.log()).contains(TO_STAMPEDE));
        Jtl jtl = Jtl.read(run.jtl());
        assertEquals(LABELS, jtl.labels());
        assertEquals(0, jtl.errors());
        // Without the jar the same JMeter runs the plan on stock: the switch is never global.
        JMeterRun.Result stock = JMeterRun.of(JMeterHome.fromStampedeRoot(), SHOP, tmp.resolve("plain-stock"))
                .property("host", nginx.host()).property("port", nginx.port())
                .property("threads", 2).property("duration", 2).property("rampup", 0)
                .timeout(Duration.ofSeconds(120)).run();
        assertTrue(stock.succeeded(), stock.describe());
        assertFalse(Files.readString(stock.log()).contains("EngineHttpRequest"));
    }

    @Test
    void aPlanWithoutHttpRequestsRunsAndSaysOnceThatThereWasNothingToSwitch(@TempDir Path tmp) throws Exception {
        StampedeRunIT.Result r = StampedeRunIT.stampede(List.of("run", ROOT.resolve("plans/quickstart.jmx").toString(),
                "--engine", "stampede", "--out", tmp.resolve("out").toString(), "--no-dashboard",
                "-J", "threads=4", "-J", "duration=3", "-J", "rampup=0"), 180);
        assertEquals(0, r.exit(), r.describe());
        assertEquals(1, count(r.stdout(), "nothing to switch"), r.stdout());
        assertTrue(r.stdout().contains("stampede run: engine stampede: quickstart.jmx has no HTTP Request (JMeter's"
                + " or Stampede's), nothing to switch"), r.stdout());
        assertTrue(r.stdout().contains("errors     0 (0.000%)"), r.stdout());
    }

    private static StampedeRunIT.Result shop(Path plan, Path out, String engine) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", plan.toString(), "--engine", engine, "--out",
                out.toString(), "--no-dashboard", "--host", nginx.host(), "--port", Integer.toString(nginx.port()),
                "-J", "threads=8", "-J", "duration=5", "-J", "rampup=1"));
        return StampedeRunIT.stampede(args, 180);
    }

    /** Every request of every user succeeded, the assertions passed, and the CSV, extractor and cookies worked. */
    private static void assertShopRan(Path out) {
        Jtl jtl = Jtl.read(out.resolve("results.jtl"));
        assertEquals(LABELS, jtl.labels());
        assertEquals(0, jtl.errors(), "every sample passed both assertions");
        assertEquals(Set.of("200"), jtl.statusCodes());
        assertTrue(jtl.count() > 3 * 8, "every user went round: " + jtl.count());
        assertEquals(jtl.count("/test.txt (home)"), jtl.count("/test.txt (login POST)"), 8.0,
                "users stop mid-round only at the end");
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
