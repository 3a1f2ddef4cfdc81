/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.engine;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.engine.tls.SelfSignedTls;
import io.stampede.it.support.JMeterHome;
import io.stampede.it.support.JMeterRun;
import io.stampede.it.support.Jtl;
import io.stampede.it.support.JtlRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Response framing inside JMeter 5.6.3: a raw-socket server sends well-formed, lenient and malformed responses (cases
 * of the framer's RFC 9112 table) to both Stampede samplers, over every path that shares the framer: one connection
 * per thread, connections per thread, pipelining, and TLS (single and grouped), in both I/O modes. The JTL must show
 * the expected success, status or ProtocolException message for every sample, and the server the expected
 * connection reuse.
 */
class FramingIT {

    private static final int LOOPS = 6;
    private static final String PROTOCOL = "Non HTTP response code: java.net.ProtocolException";
    private static final String CLOSED_EARLY = "Non HTTP response code: io.stampede.engine.PrematureCloseException";
    private static final String SOCKET_FAILURE = "Non HTTP response code: java.net.SocketException";
    private static final String OK = "HTTP/1.1 200 OK\r\n";
    private static final String CHUNKED = OK + "Transfer-Encoding: chunked\r\n\r\n";

    /** How a sample must end: a body (success), an HTTP status (failed sample), or a ProtocolException message. */
    record Case(String name, String response, boolean keepOpen, String body, String status, String protocolError) {
        static Case body(String name, String response, boolean keepOpen, String body) {
            return new Case(name, response, keepOpen, body, "200", null);
        }

        static Case status(String name, String response, String status) {
            return new Case(name, response, true, null, status, null);
        }

        static Case malformed(String name, String response, String message) {
            return new Case(name, response, false, null, null, message);
        }
    }

    static final List<Case> CASES = List.of(
            Case.body("chunked", CHUNKED + "5\r\nhello\r\n0\r\nX-T: 1\r\n\r\n", true, "hello"),
            Case.body("chunked-final-in-list", OK + "Transfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                    true, "hello"),
            Case.body("connection-closed-is-no-close", OK + "Connection: closed\r\nContent-Length: 2\r\n\r\nok", true,
                    "ok"),
            Case.status("empty-lines-around-100", "\r\nHTTP/1.1 100 Continue\r\n\r\n\r\n"
                    + "HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno", "404"),
            // From here on every response ends its connection.
            // The wrong-body bug: neither coding list ends in chunked, so the body runs to the close.
            Case.body("chunkedchunked", OK + "Transfer-Encoding: chunkedchunked\r\n\r\n2\r\nOK\r\n0\r\n\r\n", false,
                    "2\r\nOK\r\n0\r\n\r\n"),
            Case.body("chunked-then-deflate", OK + "Transfer-Encoding: chunked, deflate\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                    false, "5\r\nhello\r\n0\r\n\r\n"),
            Case.malformed("bare-cr", "HTTP/1.1 200 OK\rContent-Length: 0\r\n\r\n",
                    "Bare CR (not followed by LF) in the response status line after \"HTTP/1.1 200 OK\""),
            Case.malformed("chunk-size-junk", CHUNKED + "2 erfr\r\nOK\r\n0\r\n\r\n",
                    "Invalid chunk size line \"2 erfr\": 'e' where ';' or the line end belongs"),
            Case.malformed("chunk-longer-than-size", CHUNKED + "2\r\nOKX\r\n0\r\n\r\n",
                    "Chunk data not followed by CRLF after 2 bytes (the chunk is longer than its size line says)"),
            Case.malformed("http-5.6", "HTTP/5.6 200 OK\r\nContent-Length: 0\r\n\r\n",
                    "Unsupported HTTP version HTTP/5.6 in the status line (HTTP/1.x only)"),
            Case.malformed("space-in-header-name", OK + "Content Length: 2\r\n\r\nok",
                    "Whitespace inside the response header name in \"Content Length: 2\""));

    /** One thread group of the plan: a sampler path that shares the framer. */
    record SamplerPath(String name, int connections, int depth, boolean tls) {
    }

    static final List<SamplerPath> PATHS = List.of(
            new SamplerPath("single", 1, 1, false),
            new SamplerPath("group", 3, 1, false),
            new SamplerPath("pipelined", 2, 3, false),
            new SamplerPath("tls-single", 1, 1, true),
            new SamplerPath("tls-group", 2, 1, true));

    private static JMeterHome home;
    private static CannedResponseServer plain;
    private static CannedResponseServer tls;

    @TempDir
    Path work;

    @BeforeAll
    static void start(@TempDir Path keys) throws Exception {
        home = JMeterHome.fromStampedeRoot().requirePlugin("stampede-plugins.jar");
        plain = CannedResponseServer.start(FramingIT::answer, null);
        tls = CannedResponseServer.start(FramingIT::answer, SelfSignedTls.serverContext(keys));
    }

    @AfterAll
    static void stop() {
        if (plain != null) {
            plain.close();
        }
        if (tls != null) {
            tls.close();
        }
    }

    private static boolean keptOpen(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return CASES.stream().anyMatch(x -> x.name.equals(name) && x.keepOpen);
    }

    /** Paths are /{io mode}/{thread group}/{sampler}/{case}. */
    private static CannedResponseServer.Answer answer(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        Case c = CASES.stream().filter(x -> x.name.equals(name)).findFirst().orElse(null);
        if (c == null) {
            return new CannedResponseServer.Answer("HTTP/1.1 500 Unknown case\r\nContent-Length: 0\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1), true);
        }
        return new CannedResponseServer.Answer(c.response.getBytes(StandardCharsets.ISO_8859_1), !c.keepOpen);
    }

    @ParameterizedTest
    @ValueSource(strings = {"thread", "engine"})
    void everySamplerPathReportsEachCaseAsTheRfcSays(String ioMode) throws IOException {
        Path plan = work.resolve("framing.jmx");
        Files.writeString(plan, plan(ioMode), StandardCharsets.UTF_8);
        JMeterRun.Result r = JMeterRun.of(home, plan, work.resolve("run"))
                .property("stampede.io_mode", ioMode)
                .timeout(Duration.ofSeconds(150))
                .run();
        assertTrue(r.succeeded(), r.describe());
        Jtl jtl = Jtl.read(r.jtl());
        List<Executable> checks = new ArrayList<>();
        for (SamplerPath p : PATHS) {
            for (String sampler : List.of("raw", "http")) {
                for (Case c : CASES) {
                    String label = p.name + ' ' + sampler + ' ' + c.name;
                    String path = '/' + ioMode + '/' + p.name + '/' + sampler + '/' + c.name;
                    checks.add(() -> checkRows(jtl.label(label), label, p, c));
                    checks.add(() -> checkReuse(p.tls ? tls : plain, path, label, p, c));
                }
            }
        }
        assertAll(checks);
    }

    private static void checkRows(Jtl rows, String label, SamplerPath p, Case c) {
        assertEquals(LOOPS, rows.count(), label + ": one row per loop");
        int exact = 0;
        for (JtlRow row : rows.rows()) {
            boolean expected;
            if (c.protocolError != null) {
                expected = !row.success() && PROTOCOL.equals(row.responseCode())
                        && ("Non HTTP response message: " + c.protocolError).equals(row.responseMessage());
            } else if (c.body != null) {
                // The Response Assertion on every success case compares the whole body.
                expected = row.success() && c.status.equals(row.responseCode());
            } else {
                expected = !row.success() && c.status.equals(row.responseCode());
            }
            if (expected) {
                exact++;
            } else {
                // Requests pipelined behind a response that ends its connection fail as closed early, or, when the
                // server had already closed as they were written, with the write's broken pipe / reset; nothing else
                // may differ.
                assertTrue(p.depth > 1 && !c.keepOpen
                        && (CLOSED_EARLY.equals(row.responseCode()) || SOCKET_FAILURE.equals(row.responseCode())),
                        label + ": unexpected " + row + " (" + row.get("failureMessage") + ")");
            }
        }
        assertTrue(exact >= 1, label + ": no sample with the expected outcome");
    }

    /**
     * Kept-open cases reuse their connections; the others need a connection per request. On the single-connection
     * path both samplers share the thread's connection: every loop starts a new one (the last case of the loop before
     * ended it) and carries all kept-open cases of the loop on it.
     */
    private static void checkReuse(CannedResponseServer server, String path, String label, SamplerPath p, Case c) {
        int requests = server.requests(path);
        int connections = server.connections(path);
        // Requests pipelined behind a response that ends its connection are never read by the server.
        assertTrue(requests >= (p.depth > 1 && !c.keepOpen ? 1 : LOOPS), label + ": server saw " + requests
                + " requests");
        if (c.keepOpen && p.connections == 1 && p.depth == 1) {
            String prefix = path.substring(0, path.indexOf('/', path.indexOf('/', 1) + 1) + 1);
            int shared = server.connections(x -> x.startsWith(prefix) && keptOpen(x));
            assertEquals(LOOPS, shared, prefix + ": one connection per loop for all kept-open cases of both samplers");
        } else if (c.keepOpen) {
            assertTrue(connections <= p.connections, label + ": " + connections + " connections for " + requests
                    + " requests, at most " + p.connections + " expected (keep-alive)");
        } else {
            assertEquals(requests, connections, label + ": a connection per request (the response ends it)");
        }
    }

    private static String plan(String ioMode) {
        StringBuilder x = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
                  <hashTree>
                    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="framing" enabled="true"/>
                    <hashTree>
                """);
        for (SamplerPath p : PATHS) {
            x.append("""
                      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="%s" enabled="true">
                        <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
                        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" \
                guiclass="LoopControlPanel" testclass="LoopController" testname="loops" enabled="true">
                          <boolProp name="LoopController.continue_forever">false</boolProp>
                          <stringProp name="LoopController.loops">%d</stringProp>
                        </elementProp>
                        <stringProp name="ThreadGroup.num_threads">1</stringProp>
                        <stringProp name="ThreadGroup.ramp_time">0</stringProp>
                        <boolProp name="ThreadGroup.same_user_on_next_iteration">true</boolProp>
                      </ThreadGroup>
                      <hashTree>
                """.formatted(p.name, LOOPS));
            int port = p.tls ? tls.port() : plain.port();
            for (Case c : CASES) {
                String prefix = '/' + ioMode + '/' + p.name + '/';
                x.append(sampler("io.stampede.sampler.HttpRawSampler", "HttpRawSamplerGui", p, "raw", c, port,
                        "<boolProp name=\"stampede.tls\">" + p.tls + "</boolProp>\n"
                        + "<stringProp name=\"stampede.raw.request\">GET " + prefix + "raw/" + c.name
                        + " HTTP/1.1&#13;&#10;Host: 127.0.0.1&#13;&#10;&#13;&#10;</stringProp>\n"
                        + "<boolProp name=\"stampede.raw.crlf\">true</boolProp>\n"));
                x.append(sampler("io.stampede.sampler.HttpSampler", "HttpSamplerGui", p, "http", c, port,
                        "<stringProp name=\"stampede.http.scheme\">" + (p.tls ? "https" : "http") + "</stringProp>\n"
                        + "<stringProp name=\"stampede.http.method\">GET</stringProp>\n"
                        + "<stringProp name=\"stampede.http.path\">" + prefix + "http/" + c.name + "</stringProp>\n"
                        + "<stringProp name=\"stampede.http.headers\"></stringProp>\n"
                        + "<stringProp name=\"stampede.http.body\"></stringProp>\n"));
            }
            x.append("      </hashTree>\n");
        }
        x.append("    </hashTree>\n  </hashTree>\n</jmeterTestPlan>\n");
        return x.toString();
    }

    private static String sampler(String cls, String gui, SamplerPath p, String kind, Case c, int port, String own) {
        String label = p.name + ' ' + kind + ' ' + c.name;
        StringBuilder s = new StringBuilder();
        s.append("<").append(cls).append(" guiclass=\"io.stampede.sampler.gui.").append(gui).append("\" testclass=\"")
                .append(cls).append("\" testname=\"").append(label).append("\" enabled=\"true\">\n")
                .append("<stringProp name=\"stampede.host\">127.0.0.1</stringProp>\n")
                .append("<stringProp name=\"stampede.port\">").append(port).append("</stringProp>\n")
                .append("<stringProp name=\"stampede.connect_timeout\">30000</stringProp>\n")
                .append("<stringProp name=\"stampede.response_timeout\">30000</stringProp>\n")
                .append("<boolProp name=\"stampede.keep_alive\">true</boolProp>\n")
                .append("<boolProp name=\"stampede.tls.trust_all\">true</boolProp>\n")
                .append("<stringProp name=\"stampede.response_bytes_kept\">65536</stringProp>\n")
                .append("<stringProp name=\"stampede.connections_per_thread\">").append(p.connections)
                .append("</stringProp>\n")
                .append("<stringProp name=\"stampede.pipeline_depth\">").append(p.depth).append("</stringProp>\n")
                .append(own)
                .append("</").append(cls).append(">\n");
        if (c.body == null) {
            return s.append("<hashTree/>\n").toString();
        }
        return s.append("""
                <hashTree>
                  <ResponseAssertion guiclass="AssertionGui" testclass="ResponseAssertion" testname="body" \
                enabled="true">
                    <collectionProp name="Asserion.test_strings">
                      <stringProp name="1">%s</stringProp>
                    </collectionProp>
                    <stringProp name="Assertion.test_field">Assertion.response_data</stringProp>
                    <boolProp name="Assertion.assume_success">false</boolProp>
                    <intProp name="Assertion.test_type">8</intProp>
                  </ResponseAssertion>
                  <hashTree/>
                </hashTree>
                """.formatted(xmlText(c.body))).toString();
    }

    private static String xmlText(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
                .replace("\n", "&#10;");
    }
}
