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
 * The XMPP field report's shape ({@link XmppShape}) against ejabberd (it/bench/xmpp-benchmark.sh), by Stampede
 * (plans/xmpp-online-users.jmx) and, with {@code --tools stampede,tsung}, by Tsung 1.7's jabber plugin in turn
 * against the same node, one round after the other. With {@code --nodes N} the users are divided over N independent
 * ejabberd nodes ({@link EjabberdNodes}) and as many JMeter engines, engine i logging in node i's users
 * ({@link XmppSplit}): what the per-process file cap needs beyond about 19,000 users. Prints per round: the logins
 * and the rate reached over all engines, errors by label and kind, messages sent and received, delivery percentiles,
 * JMeter's heap after a full GC before the first login and with every user online per user, the classes that grew
 * (what the users hold), the engines' CPU per message and ejabberd's resident memory and CPU per user and message,
 * projected to 100,000 users; then a table of the rounds: users held, CPU per message in a steady window (everyone
 * online), resident memory per user.
 */
public final class XmppBenchmark {
    private static final Pattern USED = Pattern.compile("used (\\d+)K");
    private static final Pattern HISTOGRAM_ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    private static final Pattern OPEN_FILES = Pattern.compile("^Max open files\\s+(\\d+|unlimited)");
    /** The many-node run, for the projection printed with every multi-node round's memory. */
    private static final int FIELD_RUN_USERS = 100_000;

    private XmppBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>(Map.ofEntries(Map.entry("users", "19000"),
                Map.entry("sessions-per-thread", "250"), Map.entry("login-rate", "100"), Map.entry("factor", "10"),
                Map.entry("turns", "7"), Map.entry("roster", "150"), Map.entry("online-contacts", "30"),
                Map.entry("heap", "1g"), Map.entry("sasl", "plain"), Map.entry("out", "/tmp/stampede-xmpp-bench"),
                Map.entry("transport", "tcp"), Map.entry("tools", "stampede"), Map.entry("concurrent-logins", "16"),
                Map.entry("nodes", "1"), Map.entry("engines", "")));
        XmppShape shape;
        XmppSplit split;
        List<String> tools;
        try {
            for (int i = 0; i < args.length; i += 2) {
                String name = args[i].replaceFirst("^--", "");
                if (!o.containsKey(name)) {
                    throw new IllegalArgumentException("unknown option " + args[i] + "; known: " + o.keySet());
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                o.put(name, args[i + 1]);
            }
            shape = new XmppShape(number(o, "users"), number(o, "login-rate"), number(o, "factor"),
                    number(o, "turns"), number(o, "roster"), number(o, "online-contacts"));
            int nodes = number(o, "nodes");
            if (!o.get("engines").isEmpty() && number(o, "engines") != nodes) {
                throw new IllegalArgumentException("--engines " + o.get("engines") + " with --nodes " + nodes
                        + ": each engine logs in the users user1..userK of a node of its own (independent nodes, "
                        + "the same names on each), so give as many engines as nodes, or leave --engines out");
            }
            split = XmppSplit.of(shape.users(), number(o, "sessions-per-thread"), shape.loginRate(), nodes,
                    openFilesLimit(), shape.onlineContacts());
            tools = List.of(o.get("tools").split(","));
            for (String tool : tools) {
                if (!tool.equals("stampede") && !tool.equals("tsung")) {
                    throw new IllegalArgumentException("--tools lists stampede and tsung (in the order to run them), "
                            + "got " + tool);
                }
            }
            if (tools.contains("tsung") && nodes > 1) {
                throw new IllegalArgumentException("--tools tsung runs against one node (one Tsung VM, under the same "
                        + "file cap): use --nodes 1 with it, or --tools stampede");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("xmpp-benchmark: " + e.getMessage());
            System.exit(2);
            return;
        }
        Path out = Path.of(o.get("out"));
        Files.createDirectories(out);
        System.out.println("xmpp-benchmark: " + shape.describe() + "; rounds: " + tools + "; Stampede over "
                + o.get("transport") + ", SASL " + o.get("sasl") + (o.get("transport").equals("tcp") ? " over STARTTLS"
                : " over wss") + "; Tsung over TCP with STARTTLS, SASL PLAIN");
        long t0 = System.nanoTime();
        List<XmppRound> rounds = new ArrayList<>();
        try (EjabberdNodes nodes = EjabberdNodes.start(split.engines(), i -> new EjabberdServer.Options(
                split.parts().get(i).users(), shape.onlineContacts(), shape.roster() - shape.onlineContacts(), false,
                65536))) {
            System.out.printf("xmpp-benchmark: %s up in %d s on ports %s; engine and node: %s%n", split.engines() == 1
                    ? "ejabberd (one node, users provisioned in SQLite)" : split.engines() + " independent ejabberd "
                    + "nodes (not clustered: each its own users user1..userK in its own SQLite, node name, cookie and "
                    + "ports), one JMeter engine each", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0),
                    ports(nodes), split.describe());
            for (int i = 0; i < tools.size(); i++) {
                Path dir = out.resolve("round" + (i + 1) + "-" + tools.get(i));
                if (i > 0) {
                    Thread.sleep(10_000); // the previous round's logouts settle on the server
                }
                System.out.printf(Locale.ROOT, "xmpp-benchmark: round %d, %s, %tT%n", i + 1, tools.get(i),
                        System.currentTimeMillis());
                rounds.add(tools.get(i).equals("stampede") ? stampede(shape, split, o, nodes, dir)
                        : TsungXmpp.run(shape, EjabberdServer.DOMAIN, nodes.node(0).port(), FreePort.loopback(), dir));
                System.out.printf("xmpp-benchmark: ejabberd resident memory now %d MB%n", nodes.rssKb() / 1024);
            }
        }
        System.out.println("xmpp-benchmark: side by side (CPU ms/message over a window of two message intervals with "
                + "every user online; the tools' own processes, so other load on the machine shows in them too)");
        System.out.println(XmppRound.header());
        rounds.forEach(r -> System.out.println(r.row()));
    }

    private static int number(Map<String, String> o, String name) {
        try {
            return Integer.parseInt(o.get(name).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " " + o.get(name) + ": give a whole number");
        }
    }

    /** This process's open-file limit, which the engines and nodes it starts inherit. */
    private static long openFilesLimit() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            Matcher m = OPEN_FILES.matcher(line);
            if (m.find()) {
                return m.group(1).equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(m.group(1));
            }
        }
        return Long.MAX_VALUE;
    }

    private static String ports(EjabberdNodes nodes) {
        List<String> ports = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            ports.add(Integer.toString(nodes.node(i).port()));
        }
        return String.join(", ", ports);
    }

    /**
     * Engine i of the split runs the plan with its users and login rate against node i. The engines start together,
     * each waiting its plan's start delay, so the heap readings before the first login see every JVM started.
     */
    private static XmppRound stampede(XmppShape shape, XmppSplit split, Map<String, String> o, EjabberdNodes nodes,
                                      Path out) throws IOException, InterruptedException {
        int interval = shape.intervalSeconds();
        // Several JMeters start on the same cores: give each some seconds more to be up before the first login.
        long startDelayMs = 20_000 + 5_000L * (split.engines() - 1);
        List<JMeterRun.Running> engines = new ArrayList<>();
        List<JtlLineCount> loginCounts = new ArrayList<>();
        for (int i = 0; i < split.engines(); i++) {
            JMeterRun.Running running = engine(shape, split.parts().get(i), o, nodes.node(i), startDelayMs,
                    split.engines() == 1 ? out : out.resolve("engine-" + (i + 1))).start();
            engines.add(running);
            loginCounts.add(new JtlLineCount(running.jtl(), ",login,", ",true,"));
        }
        long firstPid = engines.get(0).pid();
        try (ProcessWatch watch = ProcessWatch.start(() -> alive(engines));
             ProcessWatch server = ProcessWatch.start(nodes::processes)) {
            Thread.sleep(startDelayMs - 5000);
            long before = heapAfterFullGc(engines);
            Map<String, long[]> histogramBefore = histogram(firstPid, out.resolve("histogram-before.txt"));
            long rssStart = watch.read().rssKb();
            long serverRssStart = server.read().rssKb();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(startDelayMs + shape.rampMillis()
                    + 300_000);
            long logins = 0;
            while (engines.stream().allMatch(JMeterRun.Running::isAlive) && System.nanoTime() < deadline
                    && (logins = loginCounts.stream().mapToLong(JtlLineCount::count).sum()) < shape.users()) {
                Thread.sleep(1000);
            }
            Thread.sleep(interval * 1000L / 2);
            long with = heapAfterFullGc(engines);
            long firstEngineLogins = loginCounts.get(0).count();
            Map<String, long[]> histogramWith = histogram(firstPid, out.resolve("histogram-online.txt"));
            long rssOnline = watch.read().rssKb();
            long serverRssOnline = server.read().rssKb();
            ProcessWatch.Reading a = watch.read();
            ProcessWatch.Reading serverA = server.read();
            long windowEnd = a.millis() + 2000L * interval;
            while (engines.stream().anyMatch(JMeterRun.Running::isAlive) && System.currentTimeMillis() < windowEnd) {
                Thread.sleep(200);
            }
            ProcessWatch.Reading z = watch.read();
            ProcessWatch.Reading serverZ = server.read();
            List<JMeterRun.Result> results = engines.stream().map(JMeterRun.Running::await).toList();
            XmppTally tally = XmppTally.of(results.stream().map(JMeterRun.Result::jtl).toList(), a.millis(),
                    z.millis());
            System.out.printf("xmpp-benchmark: %d of %d users logged in at the heap reading; JMeter exit %s%n", logins,
                    shape.users(), results.stream().map(r -> Integer.toString(r.exitCode())).toList());
            if (split.engines() > 1) {
                for (int i = 0; i < split.engines(); i++) {
                    XmppTally.EngineCounts c = tally.engines().get(i);
                    System.out.printf(Locale.ROOT, "  engine %d -> node %d (port %d): %,d users at %d/s: %,d logins, "
                            + "%d errors, messages sent %d, received %d%n", i + 1, i + 1, nodes.node(i).port(),
                            split.parts().get(i).users(), split.parts().get(i).loginRate(), c.logins(), c.errors(),
                            c.sent(), c.received());
                }
            }
            tally.print();
            tally.printLoginRate(shape.loginRate());
            System.out.printf(Locale.ROOT, "  JMeter heap after full GC (%d engine(s) summed): %.1f MB before the first "
                    + "login, %.1f MB with %d users online: %.2f KB per online user%n", split.engines(),
                    before / 1024.0, with / 1024.0, logins, logins == 0 ? 0.0 : (with - before) / (double) logins);
            printGrowth(histogramBefore, histogramWith, firstEngineLogins);
            System.out.printf("  JMeter resident memory: %d MB before the first login, %d MB with everyone online%n",
                    rssStart / 1024, rssOnline / 1024);
            double windowS = (z.millis() - a.millis()) / 1000.0;
            System.out.printf(Locale.ROOT, "  CPU in the steady window (%.0f s, %d messages sent in it, presence "
                    + "changes included): JMeter %.3f ms per message (%.2f cores), ejabberd %.3f ms per message (%.2f "
                    + "cores)%n", windowS, tally.windowMessages(),
                    perMessageMs(z.cpuSeconds() - a.cpuSeconds(), tally.windowMessages()),
                    (z.cpuSeconds() - a.cpuSeconds()) / Math.max(1e-9, windowS),
                    perMessageMs(serverZ.cpuSeconds() - serverA.cpuSeconds(), tally.windowMessages()),
                    (serverZ.cpuSeconds() - serverA.cpuSeconds()) / Math.max(1e-9, windowS));
            printMemory(split.engines(), logins, new long[] {rssStart, rssOnline}, new long[] {serverRssStart,
                serverRssOnline});
            return new XmppRound("stampede", logins, tally.errors(), tally.sent(), tally.received(),
                    watch.last().cpuSeconds(), z.cpuSeconds() - a.cpuSeconds(), tally.windowMessages(), rssStart,
                    rssOnline);
        }
    }

    private static JMeterRun engine(XmppShape shape, XmppSplit.Part part, Map<String, String> o,
                                    EjabberdServer node, long startDelayMs, Path out) {
        int interval = shape.intervalSeconds();
        return JMeterRun.of(JMeterHome.fromStampedeRoot(),
                JMeterHome.stampedeRoot().resolve("plans/xmpp-online-users.jmx"), out)
                .property("host", "127.0.0.1").property("port", node.port())
                .property("domain", EjabberdServer.DOMAIN).property("users", part.users())
                .property("sessions_per_thread", o.get("sessions-per-thread")).property("login_rate", part.loginRate())
                .property("message_interval_s", interval).property("presence_every", XmppShape.PRESENCE_EVERY)
                .property("turns", shape.turns()).property("sasl", o.get("sasl"))
                .property("concurrent_logins", o.get("concurrent-logins"))
                .property("transport", o.get("transport")).property("ws_url", node.secureWebSocketUrl())
                .property("login_timeout_ms", 60_000).property("start_delay_ms", startDelayMs)
                // A server that fell behind delays the last turn's logouts (each user first waits for the messages
                // sent to it): give it time before a missing message counts as lost.
                .property("drain_timeout_ms", 120_000).property("logout_timeout_ms", 60_000)
                .property("jmeter.save.saveservice.autoflush", true)
                // No -Xms: the resident memory then shows what the heap touched, not what it reserved.
                .jvmOptions("-Xmx" + o.get("heap"))
                .timeout(Duration.ofMillis(startDelayMs + shape.rampMillis() + (shape.turns() + 2L) * interval * 1000
                        + 600_000));
    }

    private static List<ProcessHandle> alive(List<JMeterRun.Running> engines) {
        return engines.stream().flatMap(e -> ProcessHandle.of(e.pid()).stream()).toList();
    }

    private static double perMessageMs(double cpuSeconds, long messages) {
        return messages == 0 ? 0 : cpuSeconds * 1000 / messages;
    }

    /**
     * Resident memory per online user, of the engines and of the ejabberd nodes (each pair: before the first login,
     * with every user online), and what the 100,000 users would take at those figures on as many nodes and
     * engines as the file cap needs, against this machine's memory.
     */
    private static void printMemory(int engines, long users, long[] jmeterKb, long[] serverKb) throws IOException {
        if (users == 0) {
            return;
        }
        double jmeterPerUser = (jmeterKb[1] - jmeterKb[0]) / (double) users;
        double serverPerUser = (serverKb[1] - serverKb[0]) / (double) users;
        System.out.printf(Locale.ROOT, "  ejabberd resident memory (%d node(s) summed): %d MB before the first login, %d "
                + "MB with %d users online: %.1f KB per online user%n", engines, serverKb[0] / 1024,
                serverKb[1] / 1024, users, serverPerUser);
        int fieldNodes = XmppSplit.nodesNeeded(FIELD_RUN_USERS, openFilesLimit());
        double server = fieldNodes * serverKb[0] / (double) engines + FIELD_RUN_USERS * serverPerUser;
        double jmeter = fieldNodes * jmeterKb[0] / (double) engines + FIELD_RUN_USERS * jmeterPerUser;
        System.out.printf(Locale.ROOT, "  projected for %,d users on %d nodes and %d engines at these figures: ejabberd "
                + "%.1f GB + JMeter %.1f GB = %.1f GB resident, of this machine's %.1f GB%n", FIELD_RUN_USERS,
                fieldNodes, fieldNodes, server / 1024 / 1024, jmeter / 1024 / 1024, (server + jmeter) / 1024 / 1024,
                memTotalKb() / 1024.0 / 1024);
    }

    private static long memTotalKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return 0;
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
        System.out.printf(Locale.ROOT, "  what a user holds (live objects grown between the first engine's two "
                + "histograms: %.0f B per user in all):%n", total / (double) users);
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

    /** KB of heap in use after a full GC, summed over the engines' JVMs. */
    private static long heapAfterFullGc(List<JMeterRun.Running> engines) throws IOException, InterruptedException {
        long kb = 0;
        for (JMeterRun.Running e : engines) {
            kb += heapAfterFullGc(e.pid());
        }
        return kb;
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
