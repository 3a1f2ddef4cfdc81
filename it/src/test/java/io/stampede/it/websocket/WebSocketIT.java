/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.websocket;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.it.remote.EngineProcess;
import io.stampede.it.run.StampedeRunIT;
import io.stampede.it.run.StampedeRunIT.Result;
import io.stampede.it.support.Folders;
import io.stampede.it.support.FreePort;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import io.stampede.it.support.NginxServer;
import io.stampede.it.support.Plans;
import io.stampede.it.support.TestCertificate;
import io.stampede.jmeter.JavaRuntime;
import io.stampede.jmeter.JavaSelection;
import io.stampede.websocket.WebSocketPeer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WebSocket samplers in real runs against a server that is not ours (python3-websockets, it/websocket/peer.py),
 * directly and behind nginx as the wss proxy users deploy: the shipped chat plan through `stampede run` under the
 * Stepping, Concurrency and Virtual User thread groups; the chat plan's virtual users through `stampede run --remote`
 * on two `stampede server` engines on Java 21+, counted by the peer too; session groups on one engine; a thousand
 * sessions on one JMeter thread; and every failure kind as a failed sample of its own, named in the summary, while
 * the run goes on.
 */
class WebSocketIT {
    private static final Path ROOT = Path.of(System.getProperty("stampede.root", "..")).toAbsolutePath().normalize();

    private static WebSocketPeer peer;
    private static NginxServer nginx;
    private static Path dir;
    private static int wssPort;

    @BeforeAll
    static void startServers() throws Exception {
        peer = WebSocketPeer.start(ROOT);
        dir = Files.createTempDirectory("stampede-ws-it");
        TestCertificate cert = TestCertificate.make(dir, "localhost");
        wssPort = FreePort.loopback();
        String http = "map $http_upgrade $connection_upgrade { default upgrade; '' close; } "
                + "server { listen 127.0.0.1:" + wssPort + " ssl; " + cert.nginxDirectives()
                + " location / { proxy_pass http://127.0.0.1:" + peer.port + "; proxy_http_version 1.1; "
                + "proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection $connection_upgrade; "
                + "proxy_read_timeout 120s; } } ";
        nginx = NginxServer.start(NginxServer.Options.defaults().withSite(http, ""));
    }

    @AfterAll
    static void stopServers() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (peer != null) {
            peer.close();
        }
        if (dir != null) {
            Folders.deleteQuietly(dir);
        }
    }

    @Test
    void chatPlanRunsUnderThreeThreadGroupsThroughNginxOverWss(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Result r = StampedeRunIT.stampede(List.of("run", ROOT.resolve("plans/websocket-chat.jmx").toString(), "--out",
                out.toString(), "--no-dashboard", "-J", "url=wss://127.0.0.1:" + wssPort + "/push?every=300",
                "-J", "trust_all=true", "-J", "stepping_users=2", "-J", "concurrency_users=2", "-J",
                "virtual_users=2", "-J", "duration=8", "-J", "think_ms=200"), 180);
        assertEquals(0, r.exit(), r.describe());
        Jtl jtl = Jtl.read(out.resolve("results.jtl"));
        assertEquals(0, jtl.errors(), r.describe());
        for (String group : List.of("stepping", "concurrency", "virtual")) {
            Jtl opens = jtl.label(group + " open");
            assertAll(group,
                    () -> assertEquals(2, opens.count(), "one handshake per user: the session is kept across "
                            + "iterations"),
                    () -> assertEquals(java.util.Set.of("101"), opens.statusCodes()),
                    () -> assertTrue(opens.rows().stream().allMatch(row -> row.connect() >= 1), "Connect > 0"),
                    () -> assertTrue(jtl.count(group + " say") >= 6, "echoes awaited: " + jtl.count(group + " say")),
                    () -> assertTrue(jtl.count(group + " push") >= 4, "pushes awaited: " + jtl.count(group + " push")));
        }
        assertTrue(r.stdout().contains("errors     0 (0.000%)"), r.stdout());
    }

    @Test
    void sessionGroupsRunOnARemoteEngine(@TempDir Path tmp) throws Exception {
        // The benchmark's plan: session groups (many sessions per thread) on an engine on the default Java.
        try (EngineProcess engine = EngineProcess.start(ROOT, tmp, FreePort.loopback(), FreePort.loopback(),
                Duration.ofSeconds(120))) {
            Path out = tmp.resolve("out");
            Result r = StampedeRunIT.stampede(List.of("run", ROOT.resolve("it/bench/websocket-bench.jmx").toString(),
                    "--out", out.toString(), "--no-dashboard", "--remote", engine.address(), "-J", "threads=2",
                    "-J", "sessions=50", "-J", "ws_port=" + peer.port, "-J", "pacing_ms=1000", "-J", "rampup=0",
                    "-J", "duration=8", "-J", "delay=0"), 180);
            assertEquals(0, r.exit(), r.describe() + "\n--- engine\n" + engine.output());
            Jtl jtl = Jtl.read(out.resolve("results.jtl"));
            assertAll(r.describe(),
                    () -> assertEquals(0, jtl.errors()),
                    () -> assertTrue(jtl.rows().stream().allMatch(row -> row.threadName().startsWith("i1of1-")),
                            "every sample came from the engine, which names its threads by its share"),
                    () -> assertEquals(100, jtl.filter(row -> row.label().startsWith("open-")
                            && row.responseCode().equals("101")).count(), "two threads of 50 sessions each"),
                    () -> assertTrue(jtl.count("echo") >= 100, "paced echoes: " + jtl.count("echo")));
        }
    }

    @Test
    void chatPlanVirtualUsersRunOnTwoRemoteEnginesOnANewJava(@TempDir Path tmp) throws Exception {
        // The Virtual User Thread Group needs Java 21+; CI's machine has Temurin 25, which also proves that an engine's
        // start script survives JMeter 5.6.3's Groovy 3 meeting Java 25's class files.
        JavaSelection installed = new JavaSelection(null, null, JavaRuntime.current(), List.of(Path.of("/usr/lib/jvm")));
        JavaRuntime jdk = installed.newestInstalled().orElse(null);
        Assumptions.assumeTrue(jdk != null, "no Java 21+ under /usr/lib/jvm for the engines' virtual users");
        CompletableFuture<EngineProcess> second = CompletableFuture.supplyAsync(() -> engine(tmp, jdk));
        EngineProcess first;
        try {
            first = engine(tmp, jdk);
        } catch (RuntimeException e) {
            second.thenAccept(EngineProcess::close);
            throw e;
        }
        try (EngineProcess one = first; EngineProcess two = second.join()) {
            WebSocketPeer.Counts before = peer.counts();
            Path out = tmp.resolve("out");
            Result r = StampedeRunIT.stampede(List.of("run", ROOT.resolve("plans/websocket-chat.jmx").toString(),
                    "--out", out.toString(), "--no-dashboard", "--remote", one.address() + "," + two.address(),
                    "-J", "url=ws://127.0.0.1:" + peer.port + "/push?every=300", "-J", "stepping_users=0",
                    "-J", "virtual_users=4", "-J", "duration=5", "-J", "think_ms=200"), 180);
            WebSocketPeer.Counts after = peer.counts();
            String why = r.describe() + "\n--- engine 1\n" + one.output() + "\n--- engine 2\n" + two.output();
            assertEquals(0, r.exit(), why);
            assertTrue(one.output().contains("the engine runs on " + jdk), one.output());
            Jtl jtl = Jtl.read(out.resolve("results.jtl"));
            Jtl says = jtl.label("virtual say");
            assertAll(why,
                    () -> assertEquals(0, jtl.errors()),
                    () -> assertEquals(2, jtl.label("virtual open").filter(row -> row.threadName().startsWith("i1of2-"))
                            .count(), "the first engine's share: two users, one handshake each"),
                    () -> assertEquals(2, jtl.label("virtual open").filter(row -> row.threadName().startsWith("i2of2-"))
                            .count(), "the second engine's share"),
                    () -> assertEquals(java.util.Set.of("101"), jtl.label("virtual open").statusCodes()),
                    () -> assertEquals(4, after.sessions() - before.sessions(), "the peer accepted the four sessions"),
                    () -> assertTrue(says.count() >= 8, "echoes awaited: " + says.count()),
                    () -> assertEquals(says.count(), after.received() - before.received(),
                            "every message the peer received is a 'say' sample, and every sample's message arrived"),
                    () -> assertTrue(jtl.count("virtual push") >= 8, "pushes awaited: " + jtl.count("virtual push")),
                    () -> assertTrue(jtl.count("virtual push") <= after.pushed() - before.pushed(),
                            "no more pushes awaited than the peer sent"));
        }
    }

    private static EngineProcess engine(Path tmp, JavaRuntime jdk) {
        try {
            return EngineProcess.start(ROOT, tmp, FreePort.loopback(), FreePort.loopback(), Duration.ofSeconds(120),
                    "--java", jdk.home().toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aThousandSessionsOnOneThreadEachPaced(@TempDir Path work) {
        JMeterRun.Result r = JMeterRun.of(JMeterHome.fromStampedeRoot(), Plans.get("websocket-group.jmx"), work)
                .property("ws_port", peer.port).property("sessions", 1000).property("pacing_ms", 1000)
                .property("loops", 3000).timeout(Duration.ofSeconds(120)).run();
        assertTrue(r.succeeded(), r.describe());
        Jtl jtl = Jtl.read(r.jtl());
        assertAll("1,000 sessions of one thread",
                () -> assertEquals(1, jtl.byThread().size(), "one JMeter thread"),
                () -> assertEquals(1, jtl.count("group"), "the group's opening is one sample"),
                () -> assertEquals(1000, jtl.filter(row -> row.label().startsWith("group-")).count(),
                        "its sub-results: the 1,000 handshakes (JMeter numbers their labels)"),
                () -> assertEquals(java.util.Set.of("101"), jtl.filter(row -> row.label().equals("group")
                        || row.label().startsWith("group-")).statusCodes()),
                () -> assertEquals(3000, jtl.count("group echo")),
                () -> assertEquals(0, jtl.errors()));
        // Each session sends once a second: 3,000 echoes over 1,000 sessions take about three seconds, never the
        // closed loop's pace of one round trip after another.
        List<JtlRow> echoes = jtl.label("group echo").rows();
        long first = echoes.stream().mapToLong(JtlRow::timeStamp).min().orElseThrow();
        long last = echoes.stream().mapToLong(JtlRow::timeStamp).max().orElseThrow();
        assertTrue(last - first >= 1500, "paced: the echoes spread over " + (last - first) + " ms");
    }

    @Test
    void everyFailureIsASampleOfItsOwnKindAndTheRunGoesOn(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Result r = StampedeRunIT.stampede(List.of("run", Plans.get("websocket-faults.jmx").toString(), "--out", out.toString(),
                "--no-dashboard", "-J", "ws_port=" + peer.port, "-J", "silent_port=" + peer.silentPort, "-J",
                "garbage_port=" + peer.garbagePort, "-J", "loops=3"), 180);
        Jtl jtl = Jtl.read(out.resolve("results.jtl"));
        String ws = "Non HTTP response code: io.stampede.engine.websocket.";
        assertAll(r.describe(),
                () -> assertEquals(ws + "WebSocketRefusedException", only(jtl, "refused")),
                () -> assertTrue(jtl.label("refused").rows().get(0).responseMessage().contains("403")),
                () -> assertEquals(ws + "WebSocketHandshakeInvalidException", only(jtl, "subprotocol")),
                () -> assertEquals(ws + "WebSocketHandshakeTimeoutException", only(jtl, "silent")),
                () -> assertEquals(ws + "WebSocketNotUpgradedException", only(jtl, "not websocket")),
                () -> assertEquals(ws + "WebSocketMessageTimeoutException", only(jtl, "echo timeout")),
                () -> assertEquals(ws + "WebSocketProtocolException", only(jtl, "big")),
                () -> assertTrue(jtl.label("closing echo").rows().stream().anyMatch(row -> row.responseCode()
                        .equals(ws + "WebSocketClosedException") && row.responseMessage().contains("1011")),
                        "the server's 1011 is reported"),
                () -> assertEquals(6, jtl.label("echo").rows().stream().filter(JtlRow::success).count(),
                        "the echo session kept working between the failures: its open (the Close ends it every "
                                + "iteration) and its echo, both labelled 'echo', three times"),
                () -> assertEquals(3, jtl.label("send echo").rows().stream()
                        .filter(row -> row.success() && row.sentBytes() > "no reply awaited".length()).count(),
                        "a Send writes its frame (header and payload) and does not wait"),
                () -> assertEquals(3, jtl.label("close echo").rows().stream().filter(JtlRow::success).count()));
        for (String kind : List.of("WebSocket handshake refused", "not a WebSocket endpoint",
                "WebSocket handshake invalid", "WebSocket upgrade unanswered", "WebSocket closed by the server",
                "WebSocket message timeout", "WebSocket protocol error")) {
            assertTrue(r.stdout().contains(kind), "the summary names '" + kind + "':\n" + r.stdout());
        }
    }

    /** The one response code of a label's failed samples. */
    private static String only(Jtl jtl, String label) {
        List<String> codes = jtl.label(label).rows().stream().filter(row -> !row.success())
                .map(JtlRow::responseCode).distinct().toList();
        assertEquals(1, codes.size(), label + ": " + codes);
        return codes.get(0);
    }
}
