/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import io.stampede.it.support.ProcessTrees;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The same round with Tsung 1.7 (Debian's package) and its jabber plugin: one Tsung controller VM generating the load
 * itself ({@code use_controller_vm}), users user1..userN with passwords pw1..pwN (Tsung's {@code userid_max},
 * {@code username}, {@code passwd}), STARTTLS, SASL PLAIN, bind and session, roster, initial presence, then per turn
 * a chat message to a random online user (stamped, so its addressee's Tsung records the delivery) and the presence
 * change at the same turns as the plan's; then each user waits at Tsung's global barrier ({@code wait_global}) until
 * every user got there, as the plan's users stay online until their thread's last turn, and closes its stream at a
 * random moment of the next interval, as the plan's last turns are spread. Tsung's own distribution runs without epmd on a
 * port given here, its web dashboard is off, and its home is the round's folder.
 */
final class TsungXmpp {
    private static final String TSUNG = "/usr/bin/tsung";
    /**
     * How long the arrival phase runs past the ramp: a launcher that fell behind the rate (a loaded machine) still
     * starts every user, as JMeter's paced logins do, instead of Tsung dropping those not started in time.
     */
    private static final int CATCH_UP_S = 60;
    /**
     * How long the users at the barrier wait for one more to arrive before they all go on: users that failed
     * before it never come.
     */
    private static final int BARRIER_TIMEOUT_S = 60;

    private TsungXmpp() {
    }

    static XmppRound run(XmppShape shape, String domain, int c2sPort, int distPort, Path out)
            throws IOException, InterruptedException {
        Files.createDirectories(out.resolve("log"));
        Path config = out.resolve("tsung.xml");
        Files.writeString(config, config(shape, domain, c2sPort));
        ProcessBuilder b = new ProcessBuilder(TSUNG, "-n", "-f", config.toString(), "-l", out.resolve("log").toString(),
                "-t", Integer.toString(distPort), "-T", Integer.toString(distPort), "-i", "stampede" + distPort,
                "start").directory(out.toFile()).redirectErrorStream(true)
                .redirectOutput(out.resolve("tsung.out").toFile());
        b.environment().put("HOME", out.toString());
        // No epmd: the node listens on the one port given, as the test's ejabberd does.
        b.environment().put("ERL_FLAGS", "-start_epmd false -erl_epmd_port " + distPort);
        long startMillis = System.currentTimeMillis();
        Process p = start(b);
        int interval = shape.intervalSeconds();
        long deadline = startMillis + 2 * shape.rampMillis() + (CATCH_UP_S + BARRIER_TIMEOUT_S) * 1000L
                + (shape.turns() + 3L) * interval * 1000 + 300_000;
        XmppRound round;
        try (ProcessWatch watch = ProcessWatch.start(() -> ProcessTrees.withDescendants(p.toHandle()).stream()
                .filter(h -> h.info().command().orElse("").contains("beam")).toList())) {
            while (p.isAlive() && System.currentTimeMillis() < deadline) {
                Thread.sleep(500);
            }
            if (p.isAlive()) {
                ProcessTrees.kill(p);
                System.out.println("xmpp-benchmark: Tsung ran past its time and was stopped");
            }
            p.waitFor(30, TimeUnit.SECONDS);
            TsungLog log = TsungLog.read(out.resolve("log"));
            // Its launcher may fall behind the rate: every user is online when the count of users running peaks.
            long online = log.firstReaching("users", log.max("users")) * 1000 + interval * 500L;
            long windowStart = online + 5000;
            long windowEnd = windowStart + 2000L * interval;
            ProcessWatch.Reading a = watch.at(windowStart);
            ProcessWatch.Reading z = watch.at(windowEnd);
            round = new XmppRound("tsung", log.max("users"), log.errors(), log.total("tr_message"),
                    log.total("xmpp_msg_latency"), watch.last().cpuSeconds(), z.cpuSeconds() - a.cpuSeconds(),
                    log.totalBetween("tr_message", a.millis() / 1000, z.millis() / 1000),
                    watch.first().rssKb(), watch.at(online).rssKb());
            System.out.printf(Locale.ROOT, "xmpp-benchmark: Tsung exit %d; its counters at the end:%n%s",
                    p.exitValue(), log.summary());
        }
        return round;
    }

    private static Process start(ProcessBuilder b) {
        try {
            return b.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + TSUNG + " (apt-get install tsung)", e);
        }
    }

    static String config(XmppShape shape, String domain, int c2sPort) {
        int interval = shape.intervalSeconds();
        StringBuilder turns = new StringBuilder();
        for (int turn = 1; turn <= shape.turns(); turn++) {
            turns.append("    <thinktime value=\"").append(interval).append("\" random=\"false\"/>\n")
                    .append("    <transaction name=\"message\"><request><jabber type=\"chat\" ack=\"no_ack\" size=\"16\""
                            + " destination=\"online\" stamped=\"true\"/></request></transaction>\n");
            if (XmppShape.presenceAt(turn)) {
                turns.append("    <request><jabber type=\"presence:broadcast\" show=\"away\" status=\"turn\""
                        + " ack=\"no_ack\"/></request>\n");
            }
        }
        return "<?xml version=\"1.0\"?>\n"
                + "<!DOCTYPE tsung SYSTEM \"/usr/share/tsung/tsung-1.0.dtd\">\n"
                + "<tsung loglevel=\"warning\" version=\"1.0\">\n"
                + "  <clients><client host=\"localhost\" use_controller_vm=\"true\" maxusers=\"" + (shape.users() + 1000)
                + "\"/></clients>\n"
                + "  <servers><server host=\"127.0.0.1\" port=\"" + c2sPort + "\" type=\"tcp\"/></servers>\n"
                + "  <load><arrivalphase phase=\"1\" duration=\"" + (2 * shape.rampMillis() / 1000 + CATCH_UP_S)
                + "\" unit=\"second\">"
                + "<users arrivalrate=\"" + shape.loginRate() + "\" unit=\"second\" maxnumber=\"" + shape.users()
                + "\"/></arrivalphase></load>\n"
                + "  <options>\n"
                + "    <option name=\"global_ack_timeout\" value=\"" + BARRIER_TIMEOUT_S * 1000 + "\"/>\n"
                + "    <option type=\"ts_jabber\" name=\"global_number\" value=\"" + shape.users() + "\"/>\n"
                + "    <option type=\"ts_jabber\" name=\"userid_max\" value=\"" + shape.users() + "\"/>\n"
                + "    <option type=\"ts_jabber\" name=\"domain\" value=\"" + domain + "\"/>\n"
                + "    <option type=\"ts_jabber\" name=\"username\" value=\"user\"/>\n"
                + "    <option type=\"ts_jabber\" name=\"passwd\" value=\"pw\"/>\n"
                + "  </options>\n"
                + "  <sessions><session probability=\"100\" name=\"online\" type=\"ts_jabber\" bidi=\"true\">\n"
                + "    <request><jabber type=\"connect\" ack=\"local\"/></request>\n"
                + "    <request><jabber type=\"starttls\" ack=\"bidi_ack\"/></request>\n"
                + "    <request><jabber type=\"connect\" ack=\"local\"/></request>\n"
                + "    <transaction name=\"login\">\n"
                + "      <request><jabber type=\"auth_sasl\" ack=\"local\"/></request>\n"
                + "      <request><jabber type=\"connect\" ack=\"local\"/></request>\n"
                + "      <request><jabber type=\"auth_sasl_bind\" ack=\"local\"/></request>\n"
                + "      <request><jabber type=\"auth_sasl_session\" ack=\"local\"/></request>\n"
                + "    </transaction>\n"
                + "    <transaction name=\"roster\"><request><jabber type=\"iq:roster:get\" ack=\"local\"/></request>"
                + "</transaction>\n"
                + "    <request><jabber type=\"presence:initial\" ack=\"no_ack\"/></request>\n"
                + turns
                + "    <thinktime value=\"wait_global\"/>\n"
                + "    <thinktime min=\"1\" max=\"" + Math.max(2, interval) + "\" random=\"true\"/>\n"
                + "    <request><jabber type=\"close\" ack=\"no_ack\"/></request>\n"
                + "  </session></sessions>\n"
                + "</tsung>\n";
    }

    /** Tsung's tsung.log: a dump every 10 s of each statistic's value in the interval and its total. */
    static final class TsungLog {
        private final List<long[]> dumps = new ArrayList<>();
        private final List<Map<String, double[]>> stats = new ArrayList<>();

        static TsungLog read(Path logRoot) throws IOException {
            Path file;
            try (Stream<Path> s = Files.walk(logRoot)) {
                file = s.filter(f -> f.getFileName().toString().equals("tsung.log")).findFirst()
                        .orElseThrow(() -> new IllegalStateException("Tsung wrote no tsung.log under " + logRoot
                                + ": see tsung.out beside it"));
            }
            TsungLog log = new TsungLog();
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("# stats: dump at ")) {
                    log.dumps.add(new long[] {Long.parseLong(line.substring(17).trim())});
                    log.stats.add(new LinkedHashMap<>());
                } else if (line.startsWith("stats: ") && !log.stats.isEmpty()) {
                    String[] f = line.substring(7).trim().split("\\s+");
                    double[] v = new double[f.length - 1];
                    for (int i = 1; i < f.length; i++) {
                        v[i - 1] = Double.parseDouble(f[i]);
                    }
                    log.stats.get(log.stats.size() - 1).put(f[0], v);
                }
            }
            return log;
        }

        /** The sum over the run of a statistic's per-interval value (a count, or a sample's count). */
        long total(String name) {
            return totalBetween(name, Long.MIN_VALUE, Long.MAX_VALUE);
        }

        /** The same, over the dumps stamped after {@code fromSecond} up to {@code toSecond} (epoch seconds). */
        long totalBetween(String name, long fromSecond, long toSecond) {
            long sum = 0;
            for (int i = 0; i < stats.size(); i++) {
                long at = dumps.get(i)[0];
                double[] v = stats.get(i).get(name);
                if (v != null && at > fromSecond && at <= toSecond) {
                    sum += (long) v[0];
                }
            }
            return sum;
        }

        /** The epoch second of the first dump where a statistic's value reached {@code value}; 0 when none did. */
        long firstReaching(String name, long value) {
            for (int i = 0; i < stats.size(); i++) {
                double[] v = stats.get(i).get(name);
                if (v != null && v[0] >= value) {
                    return dumps.get(i)[0];
                }
            }
            return 0;
        }

        /** The largest per-interval value a statistic reached (users: sessions running at once). */
        long max(String name) {
            long max = 0;
            for (Map<String, double[]> s : stats) {
                double[] v = s.get(name);
                if (v != null) {
                    max = Math.max(max, (long) v[0]);
                }
            }
            return max;
        }

        /** Every error counter's total: Tsung names them error_*. */
        long errors() {
            Map<String, Long> totals = new LinkedHashMap<>();
            for (Map<String, double[]> s : stats) {
                s.forEach((name, v) -> {
                    if (name.startsWith("error")) {
                        totals.merge(name, (long) v[0], Long::sum);
                    }
                });
            }
            return totals.values().stream().mapToLong(Long::longValue).sum();
        }

        String summary() {
            StringBuilder b = new StringBuilder();
            Map<String, Long> totals = new LinkedHashMap<>();
            for (Map<String, double[]> s : stats) {
                s.forEach((name, v) -> totals.merge(name, (long) v[0], Long::sum));
            }
            totals.forEach((name, total) -> b.append(String.format(Locale.ROOT, "  %-28s %,12d%n", name, total)));
            return b.toString();
        }
    }
}
