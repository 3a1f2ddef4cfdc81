/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.EjabberdServer;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The XMPP field report's shape in one JMeter engine against one ejabberd node (it/bench/xmpp-benchmark.sh): users
 * log in at a fixed rate over STARTTLS, fetch a roster of which a fifth is online, send their initial presence, then
 * send a message per interval and change presence every seventh, both intervals shortened by the same factor. Prints
 * the logins, errors by label, messages sent and received, delivery percentiles, and the JMeter process's heap after
 * a full GC before the first login and with every user online, per online user.
 */
public final class XmppBenchmark {
    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    private XmppBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>(Map.of("users", "19000", "sessions-per-thread", "1000",
                "login-rate", "100", "factor", "10", "turns", "3", "roster", "150", "online-contacts", "30",
                "heap", "4g", "sasl", "plain", "out", "/tmp/stampede-xmpp-bench"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            String name = args[i].replaceFirst("^--", "");
            if (!o.containsKey(name)) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; known: " + o.keySet());
            }
            o.put(name, args[i + 1]);
        }
        int users = Integer.parseInt(o.get("users"));
        int perThread = Integer.parseInt(o.get("sessions-per-thread"));
        int rate = Integer.parseInt(o.get("login-rate"));
        int factor = Integer.parseInt(o.get("factor"));
        int turns = Integer.parseInt(o.get("turns"));
        int online = Integer.parseInt(o.get("online-contacts"));
        int ghosts = Integer.parseInt(o.get("roster")) - online;
        int interval = 400 / factor;
        if (users % perThread != 0 || ghosts < 0) {
            throw new IllegalArgumentException("--users must be a multiple of --sessions-per-thread, and --roster at "
                    + "least --online-contacts");
        }
        Path out = Path.of(o.get("out"));
        Files.createDirectories(out);
        long startDelayMs = 20_000;
        long rampMs = users * 1000L / rate;
        System.out.printf(Locale.ROOT, "xmpp-benchmark: %d users, %d sessions per JMeter thread, login %d/s, roster "
                + "%d (%d online), message every %d s and presence every %d s (the field's 400 s and 2,800 s / %d), "
                + "%d turns, SASL %s over STARTTLS%n", users, perThread, rate, online + ghosts, online, interval,
                interval * 7, factor, turns, o.get("sasl"));
        long t0 = System.nanoTime();
        try (EjabberdServer ejabberd = EjabberdServer.start(new EjabberdServer.Options(users, online, ghosts, false,
                65536))) {
            System.out.printf("xmpp-benchmark: ejabberd (one node, users provisioned in SQLite) up in %d s on port %d%n",
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0), ejabberd.port());
            JMeterRun run = JMeterRun.of(JMeterHome.fromStampedeRoot(),
                    JMeterHome.stampedeRoot().resolve("plans/xmpp-online-users.jmx"), out)
                    .property("host", "127.0.0.1").property("port", ejabberd.port())
                    .property("domain", EjabberdServer.DOMAIN).property("users", users)
                    .property("sessions_per_thread", perThread).property("login_rate", rate)
                    .property("message_interval_s", interval).property("presence_every", 7)
                    .property("turns", turns).property("sasl", o.get("sasl"))
                    .property("login_timeout_ms", 60_000).property("start_delay_ms", startDelayMs)
                    .property("settle_ms", 5000).property("jmeter.save.saveservice.autoflush", true)
                    .jvmOptions("-Xms" + o.get("heap"), "-Xmx" + o.get("heap"))
                    .timeout(Duration.ofMillis(startDelayMs + rampMs + (turns + 2L) * interval * 1000 + 600_000));
            JMeterRun.Running running = run.start();
            Thread.sleep(startDelayMs - 5000);
            long before = heapAfterFullGc(running.pid());
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(startDelayMs + rampMs + 300_000);
            long logins = 0;
            while (running.isAlive() && System.nanoTime() < deadline && (logins = count(running.jtl(), ",login,"))
                    < users) {
                Thread.sleep(1000);
            }
            Thread.sleep(interval * 1000L / 2);
            long with = heapAfterFullGc(running.pid());
            String rss = rss(running.pid()) + " (JMeter), " + rss(ejabberd.processes().get(0).pid()) + " (ejabberd)";
            JMeterRun.Result r = running.await();
            Jtl jtl = Jtl.read(r.jtl());
            Map<String, long[]> byLabel = new LinkedHashMap<>();
            for (JtlRow row : jtl.rows()) {
                long[] c = byLabel.computeIfAbsent(row.label(), k -> new long[2]);
                c[0]++;
                if (!row.success()) {
                    c[1]++;
                }
            }
            List<Long> delivery = new ArrayList<>(jtl.label("message received").rows().stream().map(JtlRow::elapsed)
                    .sorted().toList());
            System.out.printf("xmpp-benchmark: %d of %d users logged in at the heap reading; JMeter exit %d%n", logins,
                    users, r.exitCode());
            byLabel.forEach((label, c) -> System.out.printf("  %-20s %9d samples %7d errors%n", label, c[0], c[1]));
            System.out.printf("  messages sent %d, received %d%n", jtl.count("message"), jtl.count("message received"));
            System.out.printf(Locale.ROOT, "  delivery (sender's clock to arrival): p50 %d ms, p99 %d ms, max %d ms%n",
                    pct(delivery, 0.50), pct(delivery, 0.99), pct(delivery, 1.0));
            System.out.printf(Locale.ROOT, "  JMeter heap after full GC: %.1f MB before the first login, %.1f MB with "
                    + "%d users online: %.2f KB per online user%n", before / 1024.0, with / 1024.0, logins,
                    logins == 0 ? 0.0 : (with - before) / (double) logins);
            System.out.println("  resident memory with everyone online: " + rss);
            failuresByMessage(jtl);
        }
    }

    private static void failuresByMessage(Jtl jtl) {
        Map<String, Long> kinds = new LinkedHashMap<>();
        for (JtlRow row : jtl.rows()) {
            if (!row.success()) {
                kinds.merge(row.label() + ": " + row.responseMessage(), 1L, Long::sum);
            }
        }
        kinds.entrySet().stream().limit(10).forEach(e -> System.out.printf("  failed %6d  %s%n", e.getValue(),
                e.getKey()));
    }

    private static long pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return -1;
        }
        return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1 < 0 ? 0
                : Math.ceil(p * sorted.size()) - 1));
    }

    private static long count(Path jtl, String needle) {
        try {
            return Files.exists(jtl) ? Files.readAllLines(jtl).stream().filter(l -> l.contains(needle)).count() : 0;
        } catch (IOException | RuntimeException e) {
            return 0; // a line half-written: the next look counts it
        }
    }

    /** KB of heap in use after a full GC, as the JVM reports it. */
    static long heapAfterFullGc(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        Matcher m = USED.matcher(jcmd(pid, "GC.heap_info"));
        if (!m.find()) {
            throw new IllegalStateException("jcmd GC.heap_info printed no 'used': is " + pid + " a JVM?");
        }
        return Long.parseLong(m.group(1));
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return text;
    }

    private static String rss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return line.substring(6).trim();
                }
            }
        } catch (IOException e) {
            return "?";
        }
        return "?";
    }
}
