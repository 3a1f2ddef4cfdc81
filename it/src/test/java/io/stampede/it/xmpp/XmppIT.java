/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.xmpp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.support.EjabberdServer;
import io.stampede.it.support.Folders;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.Plans;
import io.stampede.it.support.ProcessTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The XMPP elements against a real ejabberd (its own node, 100 users provisioned in SQLite, STARTTLS required,
 * max_stanza_size 65536, XMPP over WebSocket on ws and wss): 100 users log in (SASL PLAIN over STARTTLS, and over
 * wss), fetch rosters, exchange messages, change presence and log out with no error, every message received by its
 * addressee; and each bad case is a failed sample of its own kind while the run goes on (one user, SCRAM-SHA-1 over
 * STARTTLS, messages pushed out of its full inbox; a wrong password over ws).
 */
class XmppIT {
    private static final int USERS = 100;
    private static final int ROSTER = 5;
    private static final String CODE = "Non HTTP response code: io.stampede.engine.xmpp.";

    private static Path dir;
    private static EjabberdServer ejabberd;

    @BeforeAll
    static void startServer() throws Exception {
        dir = Files.createTempDirectory("stampede-xmpp-it-");
        ejabberd = EjabberdServer.start(EjabberdServer.Options.of(USERS, ROSTER));
    }

    @AfterAll
    static void stopServer() {
        if (ejabberd != null) {
            ejabberd.close();
        }
        if (dir != null) {
            Folders.deleteQuietly(dir);
        }
    }

    private static JMeterRun plan(String file, String name) {
        return JMeterRun.of(JMeterHome.fromStampedeRoot(), Plans.get(file), dir.resolve(name))
                .property("host", "127.0.0.1").property("port", ejabberd.port())
                .property("domain", EjabberdServer.DOMAIN).property("login_timeout_ms", 60_000)
                .timeout(Duration.ofSeconds(240));
    }

    private static String failures(Jtl jtl) {
        return jtl.rows().stream().filter(r -> !r.success()).limit(5).map(JtlRow::toString)
                .collect(Collectors.joining("\n"));
    }

    @Test
    void hundredUsersLogInOverStartTlsExchangeMessagesChangePresenceAndLogOut() {
        // PLAIN inside TLS: SCRAM's key derivation on both sides is CPU this test does not need (the faults test logs
        // in with SCRAM-SHA-1); logins spread over 10 s, timeouts for a loaded 2-core machine.
        Jtl jtl = hundredUsers(plan("xmpp-users.jmx", "users"), "XmppIT");
        assertAll(
                () -> assertEquals(0, jtl.errors(), () -> failures(jtl) + "\n" + ejabberd.log()),
                () -> assertEquals(USERS, jtl.label("login").connectsAboveZero(), "each login opened a connection"),
                () -> assertUsersTalked(jtl));
    }

    @Test
    void hundredUsersOverWebSocketDoTheSameAndAWrongPasswordThereIsASaslFailure() {
        // wss for the 100 users (TLS from the URL, no STARTTLS), plain ws for the wrong password, at the same time;
        // the c2s port is one nothing listens on, so a login that took TCP would fail.
        Jtl jtl = hundredUsers(plan("xmpp-users.jmx", "websocket").property("port", 1)
                .property("transport", "websocket").property("ws_url", ejabberd.secureWebSocketUrl())
                .property("bad_logins", 1).property("bad_ws_url", ejabberd.webSocketUrl()), "XmppIT over WebSocket");
        JtlRow wrong = only(jtl, "login wrong password");
        assertAll(
                () -> assertEquals(1, jtl.errors(), () -> failures(jtl) + "\n" + ejabberd.log()),
                () -> assertEquals(CODE + "SaslFailureException", wrong.responseCode(), wrong::toString),
                () -> assertTrue(wrong.responseMessage().contains("not-authorized"), wrong::toString),
                () -> assertUsersTalked(jtl));
    }

    private static Jtl hundredUsers(JMeterRun run, String name) {
        JMeterRun.Result r = run.property("users", USERS).property("sasl", "plain").property("ramp_s", 10)
                .property("iq_timeout_ms", 60_000).property("wait_timeout_ms", 60_000).run();
        assertTrue(r.succeeded(), r.describe());
        Jtl jtl = Jtl.read(r.jtl());
        System.out.printf("%s: %d samples; login p50 %d ms; %d messages sent, %d received%n", name, jtl.count(),
                median(jtl.label("login")), jtl.count("message"), jtl.count("message received"));
        return jtl;
    }

    /** Every user logged in, fetched its roster, sent and received its message, changed presence, logged out. */
    private static void assertUsersTalked(Jtl jtl) {
        Jtl received = jtl.label("message received");
        Set<String> senders = new HashSet<>();
        for (JtlRow row : received.rows()) {
            senders.add(row.responseMessage());
        }
        assertAll(
                () -> assertEquals(USERS, jtl.label("login").count()),
                () -> assertEquals(USERS, jtl.label("roster").count()),
                () -> assertTrue(jtl.label("roster").rows().stream()
                        .allMatch(row -> row.responseMessage().equals("result: " + ROSTER + " items")),
                        () -> jtl.label("roster").rows().get(0).toString()),
                () -> assertEquals(USERS, jtl.count("initial presence")),
                () -> assertEquals(USERS, jtl.count("message"), "sent, counted on the senders' side"),
                () -> assertEquals(USERS, received.count(), "received, counted on the addressees' side"),
                () -> assertEquals(USERS, senders.size(), "each user's message reached its addressee: " + senders),
                () -> assertEquals(USERS, jtl.count("presence away")),
                () -> assertEquals(USERS, jtl.count("logout")));
    }

    @Test
    void eachFaultIsAFailedSampleOfItsOwnKindAndTheRunGoesOn() throws Exception {
        JMeterRun.Running running = plan("xmpp-faults.jmx", "faults").property("pings", 16)
                .property("jmeter.save.saveservice.autoflush", true).start();
        List<ProcessHandle> frozen = new ArrayList<>();
        JMeterRun.Result r;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (pings(running.jtl()) < 3 && System.nanoTime() < deadline && running.isAlive()) {
                Thread.sleep(20);
            }
            frozen.addAll(ejabberd.processes());
            assertTrue(ProcessTrees.signal("STOP", frozen), "kill -STOP");
            Thread.sleep(2500);
        } finally {
            assertTrue(ProcessTrees.signal("CONT", frozen), "kill -CONT");
            r = running.await();
        }
        assertTrue(r.succeeded(), r.describe());
        Jtl jtl = Jtl.read(r.jtl());
        List<JtlRow> pings = jtl.label("ping").rows();
        List<JtlRow> timeouts = pings.stream().filter(p -> !p.success()).toList();
        JtlRow last = pings.get(pings.size() - 1);
        assertAll(
                () -> assertEquals(CODE + "SaslFailureException", only(jtl, "login wrong password").responseCode()),
                () -> assertTrue(only(jtl, "login wrong password").responseMessage().contains("not-authorized"),
                        () -> only(jtl, "login wrong password").toString()),
                () -> assertTrue(only(jtl, "login").success(), () -> only(jtl, "login").toString()),
                () -> assertEquals(CODE + "StanzaErrorException", only(jtl, "iq to an unknown domain").responseCode()),
                () -> assertTrue(only(jtl, "roster").success(), "the session went on after the stanza error"),
                () -> assertEquals(CODE + "XmppStreamException",
                        only(jtl, "wait after the stream error").responseCode()),
                () -> assertTrue(only(jtl, "wait after the stream error").responseMessage()
                        .contains("policy-violation"), () -> only(jtl, "wait after the stream error").toString()),
                () -> assertTrue(only(jtl, "login again").success(), "a new session after the stream error"),
                () -> assertEquals(16, pings.size()),
                () -> assertTrue(!timeouts.isEmpty() && timeouts.stream().allMatch(
                        p -> p.responseCode().equals(CODE + "XmppTimeoutException")), pings::toString),
                () -> assertTrue(timeouts.stream().allMatch(p -> p.elapsed() >= 900 && p.elapsed() < 6000),
                        "each timed out at its 1-s timeout: " + timeouts),
                () -> assertTrue(last.success(), "the server answered again after SIGCONT: " + last),
                // five messages to itself, an inbox of two, no wait meanwhile: three lost, reported once, by the wait
                () -> assertEquals(CODE + "InboxOverflowException", only(jtl, "wait after an overflow").responseCode(),
                        () -> only(jtl, "wait after an overflow").toString()),
                () -> assertTrue(only(jtl, "wait after an overflow").responseMessage()
                        .contains("3 stanza(s), 3 of them message(s)"), () -> only(jtl, "wait after an overflow")
                        .toString()),
                () -> assertEquals(2, jtl.label("take a kept message").rows().stream().filter(JtlRow::success)
                        .count(), () -> jtl.label("take a kept message").rows().toString()),
                () -> assertTrue(only(jtl, "logout").success(), () -> only(jtl, "logout").toString()));
    }

    private static JtlRow only(Jtl jtl, String label) {
        List<JtlRow> rows = jtl.label(label).rows();
        assertEquals(1, rows.size(), () -> label + ": " + rows);
        return rows.get(0);
    }

    private static int pings(Path jtl) {
        try {
            return Files.exists(jtl) ? (int) Files.readAllLines(jtl).stream().filter(l -> l.contains(",ping,")).count()
                    : 0;
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            return 0; // half-written: look again
        }
    }

    private static long median(Jtl jtl) {
        List<Long> times = jtl.rows().stream().map(JtlRow::elapsed).sorted().toList();
        return times.isEmpty() ? 0 : times.get(times.size() / 2);
    }
}
