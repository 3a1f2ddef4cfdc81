/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.run;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.EjabberdServer;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.ProcessTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped plans/xmpp-online-users.jmx through {@code stampede run} against ejabberd, the field report's shape
 * shortened: 200 users in 4 threads of 50 sessions log in at 100/s, fetch their roster, send their initial presence,
 * then 3 turns 2 s apart each send a message to another online user (and change presence every second turn) and
 * take what they received; a last turn takes the rest and logs out. Every message sent is received, counted on both
 * sides, with no error; also when the server falls behind just as the last turn begins.
 */
class XmppOnlineUsersPlanIT {
    private static final int USERS = 200;
    private static final int TURNS = 3;

    @Test
    void everyUserLogsInAndEveryMessageSentIsReceived(@TempDir Path tmp) throws Exception {
        try (EjabberdServer ejabberd = EjabberdServer.start(new EjabberdServer.Options(USERS, 5, 20, false, 65536))) {
            Path out = tmp.resolve("out");
            StampedeRunIT.Result r = StampedeRunIT.stampede(List.of("run",
                    StampedeRunIT.ROOT.resolve("plans/xmpp-online-users.jmx").toString(), "--out", out.toString(),
                    "--host", "127.0.0.1", "--port", Integer.toString(ejabberd.port()),
                    "-J", "domain=" + EjabberdServer.DOMAIN, "-J", "users=" + USERS, "-J", "sessions_per_thread=50",
                    "-J", "login_rate=100", "-J", "message_interval_s=2", "-J", "turns=" + TURNS,
                    "-J", "presence_every=2", "-J", "login_timeout_ms=60000"), 240);
            assertEquals(0, r.exit(), r.describe());
            Jtl jtl = Jtl.read(out.resolve("results.jtl"));
            String failures = jtl.rows().stream().filter(row -> !row.success()).limit(5).map(JtlRow::toString)
                    .collect(Collectors.joining("\n"));
            long sent = jtl.count("message");
            long received = jtl.count("message received");
            System.out.printf("XmppOnlineUsersPlanIT: %d samples, %d logins, %d messages sent, %d received, "
                    + "delivery p50 %d ms%n", jtl.count(), jtl.count("login"), sent, received,
                    median(jtl.label("message received")));
            assertAll(
                    () -> assertEquals(0, jtl.errors(), failures + "\n" + ejabberd.log()),
                    () -> assertTrue(r.stdout().contains("errors     0 (0.000%)"), r.stdout()),
                    () -> assertEquals(USERS, jtl.count("login")),
                    () -> assertEquals(USERS, jtl.count("roster")),
                    () -> assertEquals(USERS, jtl.count("initial presence")),
                    () -> assertEquals(USERS * TURNS, sent, "each user sent one message a turn"),
                    () -> assertEquals(sent, received, "every message sent was received by its addressee"),
                    () -> assertEquals(USERS * 2, jtl.count("presence change"), "turns 2 and 4"),
                    () -> assertEquals(USERS, jtl.count("logout")));
        }
    }

    /**
     * ejabberd frozen (SIGSTOP) from before the last message turn until after the last turn began: the turn's
     * messages wait in the server's sockets while their addressees take what they have and would log out. Each user
     * waits for the messages its thread's users sent it before logging out, so none is lost, bounced or left behind.
     */
    @Test
    void aServerBehindAtTheLastTurnStillDeliversEveryMessageBeforeTheLogouts(@TempDir Path tmp) throws Exception {
        int users = 100;
        int turns = 2;
        try (EjabberdServer ejabberd = EjabberdServer.start(new EjabberdServer.Options(users, 5, 20, false, 65536))) {
            JMeterRun.Running running = plan(ejabberd, users, tmp)
                    .property("sessions_per_thread", 5).property("login_rate", 100)
                    .property("message_interval_s", 4).property("turns", turns).property("settle_ms", 0)
                    .property("login_timeout_ms", 60_000).property("jmeter.save.saveservice.autoflush", true)
                    .timeout(Duration.ofSeconds(180)).start();
            List<ProcessHandle> frozen = new ArrayList<>();
            JMeterRun.Result r;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (messagesSent(running.jtl()) < users * (turns - 1L) && System.nanoTime() < deadline
                        && running.isAlive()) {
                    Thread.sleep(10);
                }
                // 20 threads log their 5 users in over about a second, so every turn of the 4-s interval falls in its
                // first second or two: the last message turn starts about 2 s after the one before ended, the last
                // turn 4 s after that.
                assertTrue(running.isAlive(), "the run ended before its first message turns did");
                frozen.addAll(ejabberd.processes());
                assertTrue(ProcessTrees.signal("STOP", frozen), "kill -STOP");
                Thread.sleep(8500);
            } finally {
                assertTrue(ProcessTrees.signal("CONT", frozen), "kill -CONT");
                r = running.await();
            }
            assertTrue(r.succeeded(), r.describe());
            Jtl jtl = Jtl.read(r.jtl());
            String failures = jtl.rows().stream().filter(row -> !row.success()).limit(5).map(JtlRow::toString)
                    .collect(Collectors.joining("\n"));
            long sent = jtl.count("message");
            long received = jtl.count("message received");
            System.out.printf("XmppOnlineUsersPlanIT (server frozen at the last turn): %d messages sent, %d received, "
                    + "delivery max %d ms%n", sent, received, jtl.label("message received").rows().stream()
                    .mapToLong(JtlRow::elapsed).max().orElse(0));
            assertAll(
                    () -> assertEquals(0, jtl.errors(), failures),
                    () -> assertEquals(users * turns, sent, "each user sent one message a turn"),
                    () -> assertEquals(sent, received, "every message sent was received by its addressee"),
                    () -> assertTrue(jtl.label("message received").rows().stream().anyMatch(row -> row.elapsed()
                            >= 1500), "some messages waited out the freeze (else the server was not behind)"),
                    () -> assertEquals(users, jtl.count("logout")));
        }
    }

    /**
     * One JMeter thread holding 100 users, asked to log them in at 200/s: faster than one login after another can go
     * (connect, STARTTLS, SASL, bind round trips each), so the thread runs several logins at once; each is still one
     * sample of its own, none starts ahead of its place on the ramp, and the users go on as usual.
     */
    @Test
    void oneThreadRunsSeveralLoginsAtOnceWithinTheAskedRate(@TempDir Path tmp) throws Exception {
        severalLoginsAtOnce(tmp, "TCP", null);
    }

    /** The same over XMPP over WebSocket (RFC 7395, wss): each login a TLS handshake and an upgrade, then SASL. */
    @Test
    void overWebSocketTooOneThreadRunsSeveralLoginsAtOnceWithinTheAskedRate(@TempDir Path tmp) throws Exception {
        severalLoginsAtOnce(tmp, "WebSocket", EjabberdServer::secureWebSocketUrl);
    }

    /** One thread's 100 logins asked at 200/s, over TCP, or over WebSocket at the URL {@code webSocket} gives. */
    private static void severalLoginsAtOnce(Path tmp, String transport,
                                            Function<EjabberdServer, String> webSocket)
            throws Exception {
        int users = 100;
        int rate = 200;
        try (EjabberdServer ejabberd = EjabberdServer.start(new EjabberdServer.Options(users, 5, 20, false, 65536))) {
            JMeterRun run = plan(ejabberd, users, tmp)
                    .property("sessions_per_thread", users).property("login_rate", rate)
                    .property("concurrent_logins", 8).property("sasl", "plain").property("message_interval_s", 2)
                    .property("turns", 1).property("settle_ms", 500).property("login_timeout_ms", 60_000)
                    .timeout(Duration.ofSeconds(120));
            if (webSocket != null) {
                run = run.property("transport", "websocket").property("ws_url", webSocket.apply(ejabberd));
            }
            JMeterRun.Result r = run.start().await();
            assertTrue(r.succeeded(), r.describe());
            Jtl jtl = Jtl.read(r.jtl());
            String failures = jtl.rows().stream().filter(row -> !row.success()).limit(5).map(JtlRow::toString)
                    .collect(Collectors.joining("\n"));
            List<JtlRow> logins = jtl.label("login").rows();
            long first = logins.stream().mapToLong(JtlRow::timeStamp).min().orElse(0);
            long last = logins.stream().mapToLong(JtlRow::timeStamp).max().orElse(0);
            int atOnce = Jtl.mostAtOnce(logins);
            List<Long> starts = logins.stream().map(JtlRow::timeStamp).sorted().toList();
            // The most any login started ahead of its place on the ramp (first + k × 1000 / rate): never, but for
            // the stamps: each is taken from the wall clock when the login is reported, and on a loaded machine that
            // read can come milliseconds late (the first login's stamp 6-8 ms late was seen), as in the check above.
            long ahead = Long.MIN_VALUE;
            for (int k = 1; k < starts.size(); k++) {
                ahead = Math.max(ahead, first + k * 1000L / rate - starts.get(k));
            }
            long mostAhead = ahead;
            System.out.printf("XmppOnlineUsersPlanIT (one thread over %s, %d/s asked): %d logins started over %d ms, "
                    + "at most %d at once, %d ms ahead of the ramp at most, login p50 %d ms%n", transport, rate,
                    logins.size(), last - first, atOnce, mostAhead, median(jtl.label("login")));
            assertAll(
                    () -> assertEquals(0, jtl.errors(), failures),
                    () -> assertEquals(users, logins.size()),
                    () -> assertTrue(atOnce >= 2, "one login after another: at most " + atOnce + " at once"),
                    // one more for a stamp taken late, which makes a login seem to start before the one it
                    // followed ended
                    () -> assertTrue(atOnce <= 9, atOnce + " logins at once, over the 8 asked"),
                    () -> assertTrue(last - first >= (users - 1) * 1000L / rate - 20, "the logins started over "
                            + (last - first) + " ms, faster than " + rate + "/s"),
                    () -> assertTrue(mostAhead <= 20, "a login started " + mostAhead + " ms before its place on the "
                            + "ramp: faster than " + rate + "/s"),
                    () -> assertEquals(users, jtl.count("roster")),
                    () -> assertEquals(jtl.count("message"), jtl.count("message received")),
                    () -> assertEquals(users, jtl.count("logout")));
        }
    }

    /** The shipped plan straight through JMeter against {@code ejabberd}, for {@code users} users. */
    private static JMeterRun plan(EjabberdServer ejabberd, int users, Path tmp) {
        return JMeterRun.of(JMeterHome.fromStampedeRoot(), StampedeRunIT.ROOT.resolve("plans/xmpp-online-users.jmx"),
                tmp.resolve("out")).property("host", "127.0.0.1").property("port", ejabberd.port())
                .property("domain", EjabberdServer.DOMAIN).property("users", users);
    }

    private static long messagesSent(Path jtl) {
        try {
            return Files.exists(jtl) ? Files.readAllLines(jtl).stream().filter(l -> l.contains(",message,")).count()
                    : 0;
        } catch (IOException | UncheckedIOException e) {
            return 0; // half-written: look again
        }
    }

    private static long median(Jtl jtl) {
        List<Long> times = jtl.rows().stream().map(JtlRow::elapsed).sorted().toList();
        return times.isEmpty() ? 0 : times.get(times.size() / 2);
    }
}
