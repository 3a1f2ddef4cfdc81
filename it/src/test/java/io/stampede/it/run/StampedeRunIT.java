/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.FreePort;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.NginxServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** `./stampede run` end to end: every shipped plan, against the built-in target and against real nginx. */
public class StampedeRunIT {

    static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();
    private static final Pattern SAMPLES = Pattern.compile("samples\\s+([\\d,]+) in [\\d.]+ s = ([\\d,]+) req/s");
    private static final Pattern PEAK = Pattern.compile("peak\\s+([\\d,]+) active threads, ([\\d,]+) open connections");
    private static final Pattern LATENCY = Pattern.compile("p50 (\\d+) ms\\s+p95 (\\d+) ms\\s+p99 (\\d+) ms\\s+max (\\d+) ms");

    private static NginxServer nginx;

    @BeforeAll
    static void startNginx() {
        nginx = NginxServer.start(NginxServer.Options.defaults());
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    @ParameterizedTest(name = "{0} against {1}")
    @CsvSource({
        "quickstart.jmx, built-in, 40, 8, 2, -1",
        "quickstart.jmx, nginx, 40, 8, 2, -1",
        "stepping-raw.jmx, built-in, 40, 8, 2, -1",
        "stepping-raw.jmx, nginx, 40, 8, 2, -1",
        "nginx-welcome-1000x50.jmx, built-in, 200, 120, 2, 10000",
        // The plan's own defaults: 1000 users, 1 s ramp-up, all released at once by its Synchronizing Timer.
        "nginx-welcome-1000x50.jmx, nginx, 1000, 300, 1, 50000",
    })
    void runsThePlanWithProgressSummaryAndDashboard(String plan, String target, int threads, int duration,
                                                    int rampup, long exactSamples, @TempDir Path tmp)
            throws Exception {
        Path out = tmp.resolve("out");
        List<String> args = new ArrayList<>(List.of("run", ROOT.resolve("plans").resolve(plan).toString(),
                "--out", out.toString(), "-J", "threads=" + threads, "-J", "duration=" + duration,
                "-J", "rampup=" + rampup,
                // a tick a second: the welcome plan's 10,000 samples can end within JMeter's first 5 s, before the
                // default tick, and a progress line is printed only while JMeter runs
                "--progress-every", "1"));
        if (target.equals("nginx")) {
            args.addAll(List.of("--host", nginx.host(), "--port", Integer.toString(nginx.port())));
        }
        Result r = stampede(args, 240);
        assertEquals(0, r.exit, r.describe());
        assertTrue(r.stdout.contains("req/s  errors"), "progress lines are printed:\n" + r.stdout);
        if (plan.startsWith("nginx-welcome")) {
            // The well-known failing shape: on a Linux injector with default settings the doctor passes it.
            assertTrue(r.stdout.contains("stampede run: doctor: ok"), "the doctor passes this plan:\n" + r.stdout);
        }

        Matcher m = SAMPLES.matcher(r.stdout);
        assertTrue(m.find(), "summary has samples and req/s:\n" + r.stdout);
        long samples = Long.parseLong(m.group(1).replace(",", ""));
        assertTrue(Long.parseLong(m.group(2).replace(",", "")) > 0, r.stdout);
        Matcher lat = LATENCY.matcher(r.stdout);
        assertTrue(lat.find(), "summary has latency percentiles:\n" + r.stdout);
        assertTrue(Long.parseLong(lat.group(1)) <= Long.parseLong(lat.group(3)), "p50 <= p99");
        assertTrue(Long.parseLong(lat.group(3)) <= Long.parseLong(lat.group(4)), "p99 <= max");
        assertTrue(r.stdout.contains("errors     0 (0.000%)"), "zero errors:\n" + r.stdout);

        Jtl jtl = Jtl.read(out.resolve("results.jtl"));
        assertEquals(samples, jtl.count(), "the summary counts every JTL row");
        assertEquals(0, jtl.errors());
        if (exactSamples > 0) {
            assertEquals(exactSamples, samples, threads + " users x 50 loops");
        } else {
            assertTrue(samples > threads, "every user sent requests: " + samples);
        }
        Matcher peak = PEAK.matcher(r.stdout);
        assertTrue(peak.find(), "summary has the peak threads and connections:\n" + r.stdout);
        long peakThreads = Long.parseLong(peak.group(1).replace(",", ""));
        assertEquals(jtl.rows().stream().mapToLong(row -> row.getLong("allThreads")).max().orElse(0), peakThreads,
                "the peak is the JTL's highest allThreads");
        if (plan.startsWith("nginx-welcome") && target.equals("nginx")) {
            // Its name says 1000 concurrent users: they must really be running at the same time.
            assertTrue(peakThreads >= 900, "the welcome plan peaks at >= 900 active threads: " + peakThreads);
            assertTrue(Long.parseLong(peak.group(2).replace(",", "")) >= 900,
                    "and >= 900 open connections (one kept-alive per user): " + peak.group(2));
        }
        assertTrue(Files.isRegularFile(out.resolve("dashboard/index.html")), "dashboard generated");
        assertTrue(Files.isRegularFile(out.resolve("summary.txt")));
        assertTrue(Files.isRegularFile(out.resolve("jmeter.log")));
    }

    /**
     * The injector monitor starts with the test, from the element `stampede run` puts in the plan it loads: no
     * JSR-223 init script (Groovy cost each JMeter seconds of CPU and started the monitor only after the threads),
     * the monitor's start logged before the first thread group starts, a row a second in injector.csv, and the copy
     * of the plan removed after the run. And -L reaches JMeter's log levels: no "Thread started" at WARN.
     */
    @Test
    void startsTheInjectorMonitorWithTheTestWithoutAScriptEngine(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Result r = stampede(List.of("run", ROOT.resolve("plans/quickstart.jmx").toString(), "--out", out.toString(),
                "--no-dashboard", "-J", "threads=2", "-J", "duration=4", "-J", "rampup=0",
                "-L", "jmeter.threads=WARN"), 120);
        assertEquals(0, r.exit, r.describe());
        String log = Files.readString(out.resolve("jmeter.log"));
        assertFalse(log.contains("Thread started"), "org.apache.jmeter.threads logged at INFO:\n" + log);
        assertFalse(log.contains("JSR-223 init script"), "JMeter ran an init script:\n" + log);
        int monitor = log.indexOf("Stampede injector monitor: writing " + out.resolve("injector.csv"));
        int threads = log.indexOf("Starting ThreadGroup: 1");
        assertTrue(monitor >= 0, "the monitor started:\n" + log);
        assertTrue(threads > monitor, "the monitor started before the threads:\n" + log);
        List<String> rows = Files.readAllLines(out.resolve("injector.csv"));
        assertTrue(rows.size() >= 3 && rows.get(0).startsWith("second,") && rows.get(1).startsWith("0,"),
                "injector.csv has a row a second: " + rows);
        try (var plans = Files.list(ROOT.resolve("plans"))) {
            List<Path> copies = plans.filter(f -> f.getFileName().toString().startsWith(".quickstart.run.")).toList();
            assertEquals(List.of(), copies, "the copy of the plan JMeter loaded is removed");
        }
    }

    @Test
    void missingPlanIsRefusedAndNothingIsWritten(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Result r = stampede(List.of("run", "plans/no-such-plan.jmx", "--out", out.toString()), 60);
        assertEquals(2, r.exit, r.describe());
        assertTrue(r.stderr.contains("PLAN plans/no-such-plan.jmx does not exist"), r.describe());
        assertFalse(Files.exists(out), "no partial output");
    }

    @Test
    void badPropertyIsRefusedNamingTheFieldAndFix(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Result r = stampede(List.of("run", ROOT.resolve("plans/quickstart.jmx").toString(), "--out", out.toString(),
                "-J", "threads=many"), 60);
        assertEquals(2, r.exit, r.describe());
        assertTrue(r.stderr.contains("-J threads=many is not valid: threads must be a whole number"), r.describe());
        assertFalse(Files.exists(out), "no partial output");
    }

    @Test
    void unreachableHostIsNamed(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        int closed = FreePort.loopback();
        Result r = stampede(List.of("run", ROOT.resolve("plans/quickstart.jmx").toString(), "--out", out.toString(),
                "--host", "127.0.0.1", "--port", Integer.toString(closed)), 60);
        assertEquals(3, r.exit, r.describe());
        assertTrue(r.stderr.contains("the target 127.0.0.1:" + closed + " is unreachable (Connection refused)"),
                r.describe());
        assertFalse(Files.exists(out), "no partial output");
    }

    @Test
    void usersOwnJMeterGetsOurJarsBySearchPathsOrWithConsentInLibExt(@TempDir Path tmp) throws Exception {
        Path home = tmp.resolve("jmeter");
        copyTree(ROOT.resolve("src/target/jmeter-home"), home);
        try (var jars = Files.list(home.resolve("lib/ext"))) {
            for (Path jar : jars.toList()) {
                String name = jar.getFileName().toString();
                if (name.startsWith("stampede-plugins") || name.startsWith("jmeter-plugins-")) {
                    Files.delete(jar);
                }
            }
        }
        List<String> before = listing(home.resolve("lib/ext"));
        List<String> common = List.of("run", ROOT.resolve("plans/quickstart.jmx").toString(), "--jmeter-home",
                home.toString(), "-J", "threads=5", "-J", "duration=5", "-J", "rampup=1", "--no-dashboard");

        List<String> untouched = new ArrayList<>(common);
        untouched.addAll(List.of("--out", tmp.resolve("a").toString()));
        Result r = stampede(untouched, 180);
        assertEquals(0, r.exit, r.describe());
        assertTrue(r.stdout.contains("errors     0 (0.000%)"), r.describe());
        assertEquals(before, listing(home.resolve("lib/ext")), "without consent the installation is left as it was");

        List<String> consent = new ArrayList<>(common);
        consent.addAll(List.of("--out", tmp.resolve("b").toString(), "--install-plugin"));
        r = stampede(consent, 180);
        assertEquals(0, r.exit, r.describe());
        List<String> after = listing(home.resolve("lib/ext"));
        assertTrue(after.contains("stampede-plugins.jar") && after.contains("jmeter-plugins-casutg.jar"),
                "--install-plugin copied our jar and casutg: " + after);
    }

    private static List<String> listing(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()));
            }
        }
    }

    /** Runs ./stampede with {@code args} to its end (at most {@code timeoutSeconds}); for other ITs too. */
    public static Result stampede(List<String> args, int timeoutSeconds) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ROOT.resolve("stampede").toString());
        cmd.addAll(args);
        Path stdout = Files.createTempFile("stampede-run", ".out");
        Path stderr = Files.createTempFile("stampede-run", ".err");
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new AssertionError("stampede " + args + " did not finish within " + timeoutSeconds + " s:\n"
                        + Files.readString(stdout) + Files.readString(stderr));
            }
            return new Result(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }

    /** What a ./stampede run printed and its exit status. */
    public record Result(int exit, String stdout, String stderr) {
        public String describe() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }
}
