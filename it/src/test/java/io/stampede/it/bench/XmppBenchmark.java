/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.EjabberdServer;
import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The XMPP field report's shape ({@link XmppShape}) against one ejabberd node (it/bench/xmpp-benchmark.sh), by
 * Stampede (plans/xmpp-online-users.jmx in one JMeter) and, with {@code --tools stampede,tsung}, by Tsung 1.7's jabber
 * plugin in turn against the same node, one round after the other. Prints per round: the logins, errors, messages
 * sent and received, delivery percentiles (Stampede), JMeter's heap after a full GC before the first login and with
 * every user online per user, the classes that grew (what the users hold); then a table of both tools: users held,
 * CPU per message in a steady window (everyone online), resident memory per user.
 */
public final class XmppBenchmark {
    private static final Pattern USED = Pattern.compile("used (\\d+)K");
    private static final Pattern HISTOGRAM_ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

    private XmppBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>(Map.ofEntries(Map.entry("users", "19000"),
                Map.entry("sessions-per-thread", "250"), Map.entry("login-rate", "100"), Map.entry("factor", "10"),
                Map.entry("turns", "7"), Map.entry("roster", "150"), Map.entry("online-contacts", "30"),
                Map.entry("heap", "1g"), Map.entry("sasl", "plain"), Map.entry("out", "/tmp/stampede-xmpp-bench"),
                Map.entry("transport", "tcp"), Map.entry("tools", "stampede"), Map.entry("concurrent-logins", "16")));
        for (int i = 0; i + 1 < args.length; i += 2) {
            String name = args[i].replaceFirst("^--", "");
            if (!o.containsKey(name)) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; known: " + o.keySet());
            }
            o.put(name, args[i + 1]);
        }
        int users = Integer.parseInt(o.get("users"));
        int perThread = Integer.parseInt(o.get("sessions-per-thread"));
        XmppShape shape = new XmppShape(users, Integer.parseInt(o.get("login-rate")),
                Integer.parseInt(o.get("factor")), Integer.parseInt(o.get("turns")), Integer.parseInt(o.get("roster")),
                Integer.parseInt(o.get("online-contacts")));
        if (users % perThread != 0) {
            throw new IllegalArgumentException("--users must be a multiple of --sessions-per-thread");
        }
        List<String> tools = List.of(o.get("tools").split(","));
        for (String tool : tools) {
            if (!tool.equals("stampede") && !tool.equals("tsung")) {
                throw new IllegalArgumentException("--tools lists stampede and tsung (in the order to run them), got "
                        + tool);
            }
        }
        Path out = Path.of(o.get("out"));
        Files.createDirectories(out);
        System.out.println("xmpp-benchmark: " + shape.describe() + "; rounds: " + tools + "; Stampede over "
                + o.get("transport") + ", SASL " + o.get("sasl") + (o.get("transport").equals("tcp") ? " over STARTTLS"
                : " over wss") + "; Tsung over TCP with STARTTLS, SASL PLAIN");
        long t0 = System.nanoTime();
        List<XmppRound> rounds = new ArrayList<>();
        try (EjabberdServer ejabberd = EjabberdServer.start(new EjabberdServer.Options(users, shape.onlineContacts(),
                shape.roster() - shape.onlineContacts(), false, 65536))) {
            System.out.printf("xmpp-benchmark: ejabberd (one node, users provisioned in SQLite) up in %d s on port %d%n",
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0), ejabberd.port());
            for (int i = 0; i < tools.size(); i++) {
                Path dir = out.resolve("round" + (i + 1) + "-" + tools.get(i));
                if (i > 0) {
                    Thread.sleep(10_000); // the previous round's logouts settle on the server
                }
                System.out.printf(Locale.ROOT, "xmpp-benchmark: round %d, %s, %tT%n", i + 1, tools.get(i),
                        System.currentTimeMillis());
                rounds.add(tools.get(i).equals("stampede") ? stampede(shape, perThread, o, ejabberd, dir)
                        : TsungXmpp.run(shape, EjabberdServer.DOMAIN, ejabberd.port(), FreePort.loopback(), dir));
                System.out.printf("xmpp-benchmark: ejabberd resident memory now %d MB%n",
                        ProcessWatch.rssKb(ejabberd.processes().get(0).pid()) / 1024);
            }
        }
        System.out.println("xmpp-benchmark: side by side (CPU ms/message over a window of two message intervals with "
                + "every user online; the tools' own processes, so other load on the machine shows in them too)");
        System.out.println(XmppRound.header());
        rounds.forEach(r -> System.out.println(r.row()));
    }

    private static XmppRound stampede(XmppShape shape, int perThread, Map<String, String> o, EjabberdServer ejabberd,
                                      Path out) throws IOException, InterruptedException {
        int interval = shape.intervalSeconds();
        long startDelayMs = 20_000;
        boolean ws = o.get("transport").equals("websocket");
        JMeterRun run = JMeterRun.of(JMeterHome.fromStampedeRoot(),
                JMeterHome.stampedeRoot().resolve("plans/xmpp-online-users.jmx"), out)
                .property("host", "127.0.0.1").property("port", ejabberd.port())
                .property("domain", EjabberdServer.DOMAIN).property("users", shape.users())
                .property("sessions_per_thread", perThread).property("login_rate", shape.loginRate())
                .property("message_interval_s", interval).property("presence_every", XmppShape.PRESENCE_EVERY)
                .property("turns", shape.turns()).property("sasl", o.get("sasl"))
                .property("concurrent_logins", o.get("concurrent-logins"))
                .property("transport", o.get("transport")).property("ws_url", ejabberd.secureWebSocketUrl())
                .property("login_timeout_ms", 60_000).property("start_delay_ms", startDelayMs)
                // A server that fell behind delays the last turn's logouts (each user first waits for the messages
                // sent to it): give it time before a missing message counts as lost.
                .property("drain_timeout_ms", 120_000).property("logout_timeout_ms", 60_000)
                .property("jmeter.save.saveservice.autoflush", true)
                // No -Xms: the resident memory then shows what the heap touched, not what it reserved.
                .jvmOptions("-Xmx" + o.get("heap"))
                .timeout(Duration.ofMillis(startDelayMs + shape.rampMillis() + (shape.turns() + 2L) * interval * 1000
                        + 600_000));
        JMeterRun.Running running = run.start();
        long pid = running.pid();
        try (ProcessWatch watch = ProcessWatch.start(() -> ProcessHandle.of(pid).stream().toList())) {
            Thread.sleep(startDelayMs - 5000);
            long before = heapAfterFullGc(pid);
            Map<String, long[]> histogramBefore = histogram(pid, out.resolve("histogram-before.txt"));
            long rssStart = watch.read().rssKb();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(startDelayMs + shape.rampMillis()
                    + 300_000);
            long logins = 0;
            while (running.isAlive() && System.nanoTime() < deadline
                    && (logins = count(running.jtl(), ",login,")) < shape.users()) {
                Thread.sleep(1000);
            }
            Thread.sleep(interval * 1000L / 2);
            long with = heapAfterFullGc(pid);
            Map<String, long[]> histogramWith = histogram(pid, out.resolve("histogram-online.txt"));
            long rssOnline = watch.read().rssKb();
            ProcessWatch.Reading a = watch.read();
            long windowEnd = a.millis() + 2000L * interval;
            while (running.isAlive() && System.currentTimeMillis() < windowEnd) {
                Thread.sleep(200);
            }
            ProcessWatch.Reading z = watch.read();
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
            long windowMessages = jtl.label("message").rows().stream()
                    .filter(row -> row.timeStamp() >= a.millis() && row.timeStamp() < z.millis()).count();
            System.out.printf("xmpp-benchmark: %d of %d users logged in at the heap reading; JMeter exit %d%n", logins,
                    shape.users(), r.exitCode());
            byLabel.forEach((label, c) -> System.out.printf("  %-20s %9d samples %7d errors%n", label, c[0], c[1]));
            long sent = jtl.count("message");
            long received = jtl.label("message received").rows().stream().filter(JtlRow::success).count();
            System.out.printf("  messages sent %d, received %d: %s%n", sent, received, sent == received
                    ? "every message delivered" : (sent - received) + " not delivered");
            printLoginRate(jtl, shape);
            System.out.printf(Locale.ROOT, "  delivery (sender's clock to arrival): p50 %d ms, p99 %d ms, max %d ms%n",
                    pct(delivery, 0.50), pct(delivery, 0.99), pct(delivery, 1.0));
            System.out.printf(Locale.ROOT, "  JMeter heap after full GC: %.1f MB before the first login, %.1f MB with "
                    + "%d users online: %.2f KB per online user%n", before / 1024.0, with / 1024.0, logins,
                    logins == 0 ? 0.0 : (with - before) / (double) logins);
            printGrowth(histogramBefore, histogramWith, logins);
            System.out.printf("  JMeter resident memory: %d MB before the first login, %d MB with everyone online%n",
                    rssStart / 1024, rssOnline / 1024);
            failuresByMessage(jtl);
            return new XmppRound("stampede", logins, jtl.errors(), jtl.count("message"),
                    jtl.count("message received"), watch.last().cpuSeconds(), z.cpuSeconds() - a.cpuSeconds(),
                    windowMessages, rssStart, rssOnline);
        }
    }

    /**
     * The login rate reached against the plan's: logins over the time from the first login's start to the last's,
     * how long a login and the first turn's roster took, and the most logins that were in flight at once (a thread
     * runs up to its concurrent logins at once; with one, threads ÷ (login + roster + presence) bounds the rate).
     */
    private static void printLoginRate(Jtl jtl, XmppShape shape) {
        List<JtlRow> logins = jtl.label("login").rows().stream().filter(JtlRow::success).toList();
        if (logins.size() < 2) {
            return;
        }
        long first = logins.stream().mapToLong(JtlRow::timeStamp).min().orElse(0);
        long last = logins.stream().mapToLong(JtlRow::timeStamp).max().orElse(0);
        List<Long> loginTimes = logins.stream().map(JtlRow::elapsed).sorted().toList();
        List<Long> roster = jtl.label("roster").rows().stream().map(JtlRow::elapsed).sorted().toList();
        System.out.printf(Locale.ROOT, "  login rate %.1f/s (asked %d/s): %d logins in %.1f s; login p50 %d ms, p99 %d "
                + "ms; roster p50 %d ms, p99 %d ms; at most %d logins in flight at once%n",
                (logins.size() - 1) * 1000.0 / Math.max(1, last - first), shape.loginRate(), logins.size(),
                (last - first) / 1000.0, pct(loginTimes, 0.5), pct(loginTimes, 0.99), pct(roster, 0.5),
                pct(roster, 0.99), Jtl.mostAtOnce(logins));
    }

    /** The classes whose live bytes grew most between the two histograms, per online user. */
    private static void printGrowth(Map<String, long[]> before, Map<String, long[]> with, long users) {
        if (users == 0) {
            return;
        }
        List<Map.Entry<String, long[]>> grown = new ArrayList<>();
        long total = 0;
        for (Map.Entry<String, long[]> e : with.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            long[] d = {e.getValue()[0] - b[0], e.getValue()[1] - b[1]};
            total += d[1];
            grown.add(Map.entry(e.getKey(), d));
        }
        grown.sort((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1]));
        System.out.printf(Locale.ROOT, "  what a user holds (live objects grown between the two histograms: %.0f B per "
                + "user in all):%n", total / (double) users);
        grown.stream().limit(20).forEach(e -> System.out.printf(Locale.ROOT, "    %8.1f B  %6.2f objects  %s%n",
                e.getValue()[1] / (double) users, e.getValue()[0] / (double) users, e.getKey()));
    }

    /** Live objects by class (instances, bytes) after a full GC, the histogram also written to {@code file}. */
    static Map<String, long[]> histogram(long pid, Path file) throws IOException, InterruptedException {
        String text = jcmd(pid, "GC.class_histogram");
        Files.writeString(file, text);
        Map<String, long[]> classes = new HashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = HISTOGRAM_ROW.matcher(line);
            if (m.find()) {
                classes.put(m.group(3), new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
            }
        }
        return classes;
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
            return Files.exists(jtl) ? Files.readAllLines(jtl).stream().filter(l -> l.contains(needle)
                    && l.contains(",true,")).count() : 0;
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
}
