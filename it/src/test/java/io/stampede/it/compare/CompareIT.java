/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import java.awt.image.BufferedImage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `stampede compare` on real runs: JMeter 5.6.3 runs plans/paced.jmx against two built-in targets, one answering
 * 5 ms late (`stampede target --delay-ms 5`), in two interleaved rounds; the verdict must see +5 ms at p50, two
 * runs of the same target no difference, and the page must draw in headless Chromium. About 90 s. Skipped (with
 * compare's own words) when compare names the injector as a suspect: on a busy machine nothing can be proven.
 */
class CompareIT {

    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    /** A verdict line calling run 2 of the same target different at p50, p90 or in req/s. */
    private static final Pattern CENTRE_CALLED_DIFFERENT =
            Pattern.compile("A#2 (is [\\d.]+ ms (slower|faster) at p(50|90) |does [\\d.]+ % (more|fewer) req/s)");
    private static final Pattern SLOWER = Pattern.compile("B is ([\\d.]+) ms slower at p50 \\(±([\\d.]+)\\)");
    private static final List<Process> TARGETS = new ArrayList<>();
    private static int fast;
    private static int slow;

    @BeforeAll
    static void startTargets() throws Exception {
        fast = FreePort.loopback();
        TARGETS.add(target(fast, 0));
        slow = FreePort.loopback();
        TARGETS.add(target(slow, 5));
        warm(fast, 20_000);
        warm(slow, 8_000);
    }

    /**
     * Warms a target's JIT before round 1. At the plan's 200 req/s a fresh target runs interpreted code for most
     * of the first run, so that run alone answered ~1 ms slower at p50 (seen in CI: 1.28 ms against 0.37 ms for
     * the same target in round 2), which is run-to-run noise from the test, not from what compare measures.
     * Bounded in count (requests) and time (30 s).
     */
    private static void warm(int port, int requests) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/test.txt")).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        AtomicInteger left = new AtomicInteger(requests);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                workers.add(pool.submit(() -> {
                    while (left.getAndDecrement() > 0 && System.nanoTime() < deadline) {
                        assertEquals(200, client.send(get, HttpResponse.BodyHandlers.discarding()).statusCode());
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) {
                w.get(40, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @AfterAll
    static void stopTargets() throws InterruptedException {
        for (Process p : TARGETS) {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private static Process target(int port, int delayMs) throws Exception {
        Process p = new ProcessBuilder(cli("target", "--port", Integer.toString(port), "--delay-ms",
                Integer.toString(delayMs))).redirectErrorStream(true).start();
        String line = new String(p.getInputStream().readNBytes(40), StandardCharsets.UTF_8);
        assertTrue(line.startsWith("stampede target: serving"), line);
        return p;
    }

    private static List<String> cli(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Dstampede.root=" + ROOT, "-jar", ROOT.resolve("src/target/stampede.jar").toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    record Result(int exit, String out) {}

    private static Result run(Path log, int timeoutSeconds, List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd + "\n" + Files.readString(log));
        }
        return new Result(p.exitValue(), Files.readString(log));
    }

    @Test
    void aFiveMillisecondSlowerTargetIsSeenAndTheSameTargetTwiceIsNot(@TempDir Path tmp) throws Exception {
        // The proof needs an injector that was not starved: when the tool itself names the injector as a suspect
        // (another process took the CPU), its intervals are rightly too wide to call anything. Such a run is done
        // once more (CI once met one: 2.1 % of one run's samples sent late); only two in a row make this no test.
        Path out = tmp.resolve("rounds-1");
        String report = compareTwoRounds(tmp, out);
        if (report.contains("SUSPECT injector")) {
            System.out.println("CompareIT: the injector was named a suspect; once more:\n" + report);
            out = tmp.resolve("rounds-2");
            report = compareTwoRounds(tmp, out);
        }
        Assumptions.assumeFalse(report.contains("SUSPECT injector"), "the machine was not quiet twice; compare said:\n"
                + report);
        Matcher m = SLOWER.matcher(report);
        assertTrue(m.find(), "B is called slower at p50:\n" + report);
        double delta = Double.parseDouble(m.group(1));
        double pm = Double.parseDouble(m.group(2));
        assertTrue(delta >= 4 && delta <= 6, "p50 +5 ms ±1:\n" + report);
        assertTrue(pm < 1, "an interval narrower than ±1 ms:\n" + report);

        // Two runs of the same target, from different rounds. Each run is one sample of the run-to-run noise, which
        // 1-s windows within a run cannot see: on loopback, separate runs of one target differ by up to ~0.15 ms at
        // p50 once both targets are warm (see warm). A practical margin of 0.5 ms, ten times below the effect above,
        // keeps that noise from being called a difference at the centre of the distribution, p50 and p90, and in
        // req/s. The tails are left out of this claim: with ~1,800 samples a run's p99 is its 18th-slowest request,
        // and one busy second of a shared machine moves it by milliseconds in one run only (CI met p99 3.58 against
        // 1.67 ms, the first run's injector lagging 108 ms at most), a real difference between the two runs that
        // no interval from within a run can foresee. A pair called different at the centre is taken once more from
        // two new rounds; only two in a row fail the test.
        Result s = sameTargetTwice(tmp, out, "same");
        if (s.exit == 0 && CENTRE_CALLED_DIFFERENT.matcher(s.out).find()) {
            System.out.println("CompareIT: the same target twice was called different; two new rounds:\n" + s.out);
            Path again = tmp.resolve("rounds-again");
            compareTwoRounds(tmp, again);
            s = sameTargetTwice(tmp, again, "same-again");
        }
        assertEquals(0, s.exit, s.out);
        assertTrue(s.out.contains("verdict (overall):"), "compare gave its verdict:\n" + s.out);
        assertFalse(CENTRE_CALLED_DIFFERENT.matcher(s.out).find(), "same target, p50/p90/req/s:\n" + s.out);

        checkPageInChromium(out.resolve("compare.html"), tmp, List.of("A", "B", "A round 1", "B round 2"));
    }

    /** Two rounds of A and B through the paced plan into {@code out}; checks the run's output, returns compare.txt. */
    private static String compareTwoRounds(Path tmp, Path out) throws Exception {
        Result r = run(tmp.resolve(out.getFileName() + ".log"), 300, cli("compare", "--plan",
                ROOT.resolve("plans/paced.jmx").toString(), "--target", "A=127.0.0.1:" + fast, "--target",
                "B=127.0.0.1:" + slow, "--rounds", "2", "-J", "threads=4", "-J", "pacing_ms=20", "-J", "duration=12",
                "-J", "rampup=1", "--warmup", "3", "-o", out.toString()));
        assertEquals(0, r.exit, r.out);
        // As it goes: each round's line with the median ratio so far, then the per-round table.
        assertTrue(r.out.contains("stampede compare: round 1: A p50 ") && r.out.contains("median ratio so far"), r.out);
        assertTrue(r.out.contains("round 2    A "), r.out);
        for (String f : List.of("round-1/A", "round-1/B", "round-2/A", "round-2/B")) {
            assertTrue(Files.isRegularFile(out.resolve(f).resolve("results.jtl")), f);
        }
        return Files.readString(out.resolve("compare.txt"));
    }

    /** Compares target A's runs of round 1 and round 2 under {@code rounds}, with a practical margin of 0.5 ms. */
    private static Result sameTargetTwice(Path tmp, Path rounds, String name) throws Exception {
        return run(tmp.resolve(name + ".log"), 120, cli("compare", rounds.resolve("round-1/A").toString(),
                rounds.resolve("round-2/A").toString(), "--warmup", "3", "--margin-ms", "0.5", "-o",
                tmp.resolve(name).toString()));
    }

    /** The page draws offline in headless Chromium: the legends are in the live DOM and the screenshot has ink. */
    static void checkPageInChromium(Path page, Path tmp, List<String> legends) throws Exception {
        List<String> chromium = List.of("chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + tmp.resolve("chromium-profile"));
        List<String> dump = new ArrayList<>(chromium);
        dump.addAll(List.of("--virtual-time-budget=5000", "--dump-dom", page.toUri().toString()));
        Result dom = run(tmp.resolve("dom.html"), 90, dump);
        assertEquals(0, dom.exit, dom.out);
        for (String legend : legends) {
            assertTrue(dom.out.contains("<div class=\"u-label\">" + legend + "</div>"),
                    "uPlot drew a legend entry for " + legend);
        }
        Path png = tmp.resolve("compare.png");
        List<String> shot = new ArrayList<>(chromium);
        shot.addAll(List.of("--window-size=1200,2000", "--screenshot=" + png, page.toUri().toString()));
        Result s = run(tmp.resolve("shot.log"), 90, shot);
        assertEquals(0, s.exit, s.out);
        BufferedImage img = ImageIO.read(png.toFile());
        Path keep = ROOT.resolve("it/target/compare");
        Files.createDirectories(keep);
        Files.copy(png, keep.resolve("compare.png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        long ink = 0;
        Set<Integer> colours = new HashSet<>();
        boolean blue = false;
        boolean red = false;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                ink += rgb == 0xFFFFFF ? 0 : 1;
                blue |= rgb == 0x1F77B4; // the first series' colour (compare.js)
                red |= rgb == 0xD62728; // the second's
            }
        }
        assertTrue(ink > img.getWidth() * img.getHeight() / 50, "not blank: " + ink + " pixels of ink");
        assertTrue(colours.size() > 20, "drawn, not a flat page: " + colours.size() + " colours");
        assertTrue(blue && red, "both configurations' colours are drawn (legend markers and lines)");
    }
}
