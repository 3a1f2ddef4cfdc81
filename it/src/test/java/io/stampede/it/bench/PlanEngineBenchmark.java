/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.ShopSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Issue 14's benchmark: plans/recorded-shop.jmx (stock HTTP Requests, Defaults, Header and Cookie Managers, CSV,
 * extractor, assertions), unchanged, on the Stampede engine and on stock HttpClient4, as `stampede run --engine`
 * switches it (the switch jar on search_paths), one after the other against one nginx worker; then the same plan
 * with the Header and Cookie Managers disabled. Rounds alternate which engine goes first. Not a test: it prints
 * figures. Run it with it/bench/plan-engine-benchmark.sh.
 */
public final class PlanEngineBenchmark {

    private static final String USAGE = "usage: PlanEngineBenchmark [--duration S (60)] [--warmup S (15)]"
            + " [--threads N (200)] [--rounds N (1)] [--first stampede|stock] [--engines stampede,stock]"
            + " [--plans full,bare]";

    private PlanEngineBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>(Map.of("--duration", "60", "--warmup", "15",
                "--threads", "200", "--rounds", "1", "--first", "stampede", "--engines", "stampede,stock",
                "--plans", "full,bare"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!opts.containsKey(args[i])) {
                System.err.println("plan-engine-benchmark: unknown option " + args[i] + "; " + USAGE);
                System.exit(2);
            }
            opts.put(args[i], args[i + 1]);
        }
        BenchOptions options = new BenchOptions(Integer.parseInt(opts.get("--duration")),
                Integer.parseInt(opts.get("--warmup")), Integer.parseInt(opts.get("--threads")),
                Set.of(BenchOptions.Tool.STOCK));
        int rounds = Integer.parseInt(opts.get("--rounds"));
        boolean stampedeFirst = opts.get("--first").equals("stampede");
        List<String> engines = List.of(opts.get("--engines").split(","));
        List<String> plans = List.of(opts.get("--plans").split(","));
        JMeterHome home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        Path root = JMeterHome.stampedeRoot();
        Path switches = root.resolve("src/target/jmeter-home/switch");
        Path work = Files.createTempDirectory("stampede-plan-bench-");
        Path full = variant(root, work.resolve("full"), false);
        Path bare = variant(root, work.resolve("bare"), true);
        CpuTimes cpu = CpuTimes.linux();
        System.out.printf("plan engine benchmark: recorded-shop.jmx, %d threads (keep-alive), %d s per row, figures"
                + " over the %d s after a %d s warm-up, %d round(s), %s first%n%d cores, load average before: %s%n",
                options.connections(), options.durationSeconds(), options.measuredSeconds(), options.warmupSeconds(),
                rounds, stampedeFirst ? "stampede" : "stock", Runtime.getRuntime().availableProcessors(),
                CpuTimes.loadAverage());
        List<Measurement> rows = new ArrayList<>();
        try (NginxServer nginx = NginxServer.start(ShopSite.nginx())) {
            System.out.printf("nginx on %s (1 worker, access log off; %s)%n%n", nginx.url("/"), ShopSite.SERVER_LINES);
            JMeterLoad jmeter = new JMeterLoad(home, nginx, cpu, options, work);
            for (int round = 1; round <= rounds; round++) {
                boolean stampedeNow = stampedeFirst == (round % 2 == 1);
                for (Path plan : List.of(full, bare)) {
                    if (!plans.contains(plan == full ? "full" : "bare")) {
                        continue;
                    }
                    String what = plan == full ? "shop" : "shop, no Hdr/Cookie";
                    for (String engine : stampedeNow ? List.of("stampede", "stock") : List.of("stock", "stampede")) {
                        if (!engines.contains(engine)) {
                            continue;
                        }
                        String tool = what + ", " + engine;
                        Path jar = switches.resolve("stampede-switch-to-" + engine + ".jar");
                        JMeterLoad.Row row = jmeter.measureRow(tool, plan, "r" + round + "-"
                                + (plan == full ? "full" : "bare") + "-" + engine,
                                Map.of("search_paths", jar, "rampup", 2));
                        Measurement m = row.measurement();
                        System.out.printf("  round %d  %-28s %8.0f req/s  %5.2f cores  %6.1f us/req  p50 %d ms"
                                + "  p99 %d ms  errors %d  (other load %.2f cores)%n", round, tool,
                                m.requestsPerSecond(), m.cores(), m.cpuMicrosPerRequest(), row.p50(), row.p99(),
                                m.errors(), m.otherCores());
                        rows.add(m);
                    }
                }
            }
        }
        System.out.println();
        new BenchReport(rows).print(System.out);
        if (engines.size() < 2 || plans.size() < 2) {
            System.out.println("logs kept in " + work);
            return;
        }
        for (String what : List.of("shop", "shop, no Hdr/Cookie")) {
            List<double[]> ratios = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                List<Measurement> round = rows.subList(r * 4, r * 4 + 4);
                Measurement s = row(round, what + ", stampede");
                Measurement k = row(round, what + ", stock");
                ratios.add(new double[] {s.requestsPerSecond() / k.requestsPerSecond(),
                        s.cpuMicrosPerRequest() / k.cpuMicrosPerRequest()});
            }
            double[] weakest = ratios.stream().min(Comparator.comparingDouble(a -> a[0])).orElseThrow();
            for (int r = 0; r < ratios.size(); r++) {
                System.out.printf("%-22s stampede / stock, round %d:  req/s x%.2f   CPU per request x%.2f%n", what,
                        r + 1, ratios.get(r)[0], ratios.get(r)[1]);
            }
            System.out.printf("%-22s weakest round:               req/s x%.2f   CPU per request x%.2f%n", what,
                    weakest[0], weakest[1]);
        }
        System.out.println("logs kept in " + work);
    }

    private static Measurement row(List<Measurement> round, String tool) {
        return round.stream().filter(m -> m.tool().equals(tool)).findFirst().orElseThrow();
    }

    /** The shop plan and its CSV in their own folder; {@code bare} disables the Header and Cookie Managers. */
    private static Path variant(Path root, Path dir, boolean bare) throws Exception {
        Files.createDirectories(dir);
        Files.copy(root.resolve("plans/recorded-shop-users.csv"), dir.resolve("recorded-shop-users.csv"));
        String text = Files.readString(root.resolve("plans/recorded-shop.jmx"));
        if (bare) {
            String before = text;
            text = text.replace("testname=\"HTTP Header Manager\">", "testname=\"HTTP Header Manager\" enabled=\"false\">")
                    .replace("testname=\"HTTP Cookie Manager\">", "testname=\"HTTP Cookie Manager\" enabled=\"false\">");
            if (text.length() != before.length() + 2 * " enabled=\"false\"".length()) {
                throw new IllegalStateException("plans/recorded-shop.jmx changed: its managers were not found");
            }
        }
        return Files.writeString(dir.resolve("recorded-shop.jmx"), text);
    }
}
