/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan's Stampede samplers checked before a run, their fields read as the run reads them. */
class SamplerProtocolsTest {

    private static final String RAW = "io.stampede.sampler.HttpRawSampler";
    private static final String HTTP = "io.stampede.sampler.HttpSampler";

    @TempDir
    Path dir;

    private String refused(String testClass, Map<String, String> fields, Map<String, String> variables,
                           Map<String, String> properties) throws Exception {
        JmxTree plan = JmxTree.parse(SamplerPlans.write(dir.resolve("p.jmx"), testClass, fields, variables));
        return assertThrows(PlanException.class, () -> SamplerProtocols.check(plan, properties)).getMessage();
    }

    private void accepted(String testClass, Map<String, String> fields, Map<String, String> variables,
                          Map<String, String> properties) throws Exception {
        SamplerProtocols.check(JmxTree.parse(SamplerPlans.write(dir.resolve("p.jmx"), testClass, fields, variables)),
                properties);
    }

    @Test
    void literalBadValuesNameThePlanTheSamplerTheFieldAndTheFix() throws Exception {
        assertEquals("p.jmx: sampler 'GET /': stampede.protocol: 'h3' is not a protocol; enter http/1.1, h2 (HTTP/2"
                + " over TLS with ALPN) or h2c (HTTP/2 over cleartext), or leave it empty for http/1.1",
                refused(RAW, Map.of("stampede.protocol", "h3"), Map.of(), Map.of()));
        assertEquals("p.jmx: sampler 'GET /': stampede.h2.streams: 0 is out of range; enter one between 1 and 10000 (or"
                + " leave it empty for 1)", refused(HTTP, Map.of("stampede.protocol", "h2c", "stampede.h2.streams",
                "0"), Map.of(), Map.of()));
        assertEquals("p.jmx: sampler 'GET /': stampede.connections_per_thread: 0 is out of range; enter one between 1"
                + " and 100000 (or leave it empty for 1)", refused(RAW, Map.of("stampede.protocol", "h2c",
                "stampede.connections_per_thread", "0"), Map.of(), Map.of()));
        assertEquals("p.jmx: sampler 'GET /': stampede.protocol: h2 is HTTP/2 over TLS; tick TLS (stampede.tls), or"
                + " use h2c for HTTP/2 over cleartext", refused(RAW, Map.of("stampede.protocol", "h2"), Map.of(),
                Map.of()));
        assertEquals("p.jmx: sampler 'GET /': stampede.protocol: h2 is HTTP/2 over TLS; set stampede.http.scheme to"
                + " https, or use h2c for HTTP/2 over cleartext", refused(HTTP, Map.of("stampede.protocol", "h2",
                "stampede.http.scheme", "http"), Map.of(), Map.of()));
        accepted(RAW, Map.of("stampede.protocol", "h2", "stampede.tls", "true", "stampede.h2.streams", "100"), Map.of(),
                Map.of());
        accepted(HTTP, Map.of("stampede.protocol", "h2", "stampede.http.scheme", "https"), Map.of(), Map.of());
        accepted(RAW, Map.of(), Map.of(), Map.of());
    }

    @Test
    void expressionsAreReadWithTheGivenPropertiesAndVariables() throws Exception {
        Map<String, String> fields = Map.of("stampede.protocol", "${__P(proto,h2c)}", "stampede.h2.streams",
                "${streams}");
        Map<String, String> variables = Map.of("streams", "${__P(streams,10)}");
        accepted(RAW, fields, variables, Map.of());
        assertEquals("p.jmx: sampler 'GET /': stampede.protocol: 'spdy' is not a protocol; enter http/1.1, h2 (HTTP/2"
                + " over TLS with ALPN) or h2c (HTTP/2 over cleartext), or leave it empty for http/1.1 (the plan's"
                + " stampede.protocol is '${__P(proto,h2c)}': give a valid value with -J proto=VALUE, or fix the plan)",
                refused(RAW, fields, variables, Map.of("proto", "spdy")));
        assertEquals("p.jmx: sampler 'GET /': stampede.h2.streams: -1 is out of range; enter one between 1 and 10000 (or"
                + " leave it empty for 1) (the plan's stampede.h2.streams is '${streams}', read with the -J"
                + " properties given: fix the plan or the properties)",
                refused(RAW, fields, variables, Map.of("streams", "-1")));
    }

    @Test
    void valuesThatCannotBeKnownBeforeTheRunAreLeftToTheSampler() throws Exception {
        // A protocol from a function or a run-time variable: the sampler is not checked (its streams neither).
        accepted(RAW, Map.of("stampede.protocol", "${__Random(1,2)}", "stampede.h2.streams", "0"), Map.of(), Map.of());
        accepted(RAW, Map.of("stampede.protocol", "${fromCsv}", "stampede.h2.streams", "0"), Map.of(), Map.of());
        // A user defined variable that cannot be known is left out, not refused: the run would work.
        accepted(RAW, Map.of("stampede.protocol", "h2c", "stampede.h2.streams", "${n}"),
                Map.of("n", "${__Random(1,9)}"), Map.of());
        // A known protocol with an unknown TLS field: streams are still checked, the transport is not.
        accepted(RAW, Map.of("stampede.protocol", "h2", "stampede.tls", "${__property(tls)}"), Map.of(), Map.of());
        assertEquals("p.jmx: sampler 'GET /': stampede.h2.streams: 0 is out of range; enter one between 1 and 10000 (or"
                + " leave it empty for 1)", refused(RAW, Map.of("stampede.protocol", "h2", "stampede.tls",
                "${__property(tls)}", "stampede.h2.streams", "0"), Map.of(), Map.of()));
    }

    @Test
    void httpRequestsOwnProtocolAndThePlanWideOneAreChecked() throws Exception {
        assertEquals("p.jmx: stampede.protocol of HTTP Request 'GET /': 'h3' is not a protocol; enter http/1.1, h2"
                + " (HTTP/2 over TLS with ALPN) or h2c (HTTP/2 over cleartext), or leave it empty for http/1.1",
                refused("HTTPSamplerProxy", Map.of("stampede.protocol", "h3"), Map.of(), Map.of()));
        assertTrue(refused("io.stampede.httprequest.EngineHttpRequest", Map.of("stampede.protocol",
                "${__P(proto,h2)}"), Map.of(), Map.of("proto", "http2")).startsWith("p.jmx: stampede.protocol of HTTP"
                + " Request 'GET /': 'http2' is not a protocol here; enter h2"));
        accepted("HTTPSamplerProxy", Map.of("stampede.protocol", "h2"), Map.of(), Map.of());
        accepted("HTTPSamplerProxy", Map.of(), Map.of(), Map.of("stampede.protocol", "h2c"));
        assertEquals("-J stampede.protocol: 'quic' is not a protocol; enter http/1.1, h2 (HTTP/2 over TLS with ALPN) or"
                + " h2c (HTTP/2 over cleartext), or leave it empty for http/1.1",
                refused("HTTPSamplerProxy", Map.of(), Map.of(), Map.of("stampede.protocol", "quic")));
    }

    @Test
    void httpRequestsHttp2OptionsOwnAndPlanWideAreChecked() throws Exception {
        assertEquals("p.jmx: HTTP Request 'GET /', stampede.h2.max_requests: 'many' is not a whole number; enter one"
                + " between 0 and 2147483647 (or leave it empty for 0)",
                refused("HTTPSamplerProxy", Map.of("stampede.h2.max_requests", "many"), Map.of(), Map.of()));
        assertTrue(refused("io.stampede.httprequest.EngineHttpRequest", Map.of("stampede.h2.window", "${__P(w,1)}"),
                Map.of(), Map.of()).startsWith("p.jmx: HTTP Request 'GET /', stampede.h2.window: 1 is out of range;"
                + " enter one between 65535 and"));
        assertTrue(refused("HTTPSamplerProxy", Map.of(), Map.of(), Map.of("stampede.h2.window", "0"))
                .startsWith("-J stampede.h2.window: 0 is out of range; enter one between 65535 and"));
        assertTrue(refused("HTTPSamplerProxy", Map.of(), Map.of(), Map.of("stampede.h2.ping_ms", "20"))
                .startsWith("-J stampede.h2.ping_ms: 20 ms is below 100 ms; enter 0 for no PINGs or an interval of"
                + " 100 ms or more"));
        accepted("HTTPSamplerProxy", Map.of("stampede.h2.window", "65535", "stampede.h2.max_requests", "1000"),
                Map.of(), Map.of("stampede.h2.max_requests", "10", "stampede.h2.ping_ms", "5000"));
    }
}
