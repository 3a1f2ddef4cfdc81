/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeCommand;
import io.stampede.plan.SamplerPlans;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `stampede run` and `stampede doctor --plan` refuse a plan whose Stampede sampler would fail every sample on its
 * protocol settings: exit 2, the plan, the sampler, the field and the fix on stderr, nothing written.
 */
class SamplerCheckTest {

    private static final String RAW = "io.stampede.sampler.HttpRawSampler";
    private static final String HTTP = "io.stampede.sampler.HttpSampler";

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of("an unknown protocol", RAW, Map.of("stampede.protocol", "http3"), List.<String>of(),
                        "stampede.protocol: 'http3' is not a protocol; enter http/1.1, h2"),
                Arguments.of("an unknown protocol from -J", HTTP, Map.of("stampede.protocol", "${__P(proto,h2c)}"),
                        List.of("-J", "proto=HTTP/2"), "stampede.protocol: 'HTTP/2' is not a protocol here; enter h2"),
                Arguments.of("streams 0", RAW, Map.of("stampede.protocol", "h2c", "stampede.h2.streams", "0"),
                        List.<String>of(), "stampede.h2.streams: 0 is out of range; enter one between 1 and 10000"),
                Arguments.of("streams below 0 from -J", RAW, Map.of("stampede.protocol", "h2c",
                        "stampede.h2.streams", "${__P(streams,10)}"), List.of("-J", "streams=-4"),
                        "stampede.h2.streams: -4 is out of range"),
                Arguments.of("no connections", HTTP, Map.of("stampede.connections_per_thread", "0"), List.<String>of(),
                        "stampede.connections_per_thread: 0 is out of range; enter one between 1 and 1000000"),
                Arguments.of("h2 without TLS", HTTP, Map.of("stampede.protocol", "h2"), List.<String>of(),
                        "stampede.protocol: h2 is HTTP/2 over TLS; set stampede.http.scheme to https, or use h2c"),
                Arguments.of("h2c with TLS", RAW, Map.of("stampede.protocol", "h2c", "stampede.tls", "true"),
                        List.<String>of(), "stampede.protocol: h2c is HTTP/2 over cleartext, but this sampler is set to TLS"),
                Arguments.of("pacing with h2", RAW, Map.of("stampede.protocol", "h2c", "stampede.pacing_ms", "5"),
                        List.<String>of(), "stampede.pacing_ms is an HTTP/1.1 setting and is not supported with"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void runRefusesThePlanBeforeAnythingStarts(String what, String testClass, Map<String, String> fields,
                                               List<String> properties, String message, @TempDir Path dir)
            throws Exception {
        Path plan = SamplerPlans.write(dir.resolve("bad.jmx"), testClass, fields, Map.of());
        Path out = dir.resolve("out");
        StringWriter err = new StringWriter();
        StringWriter console = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(console));
        cli.setErr(new PrintWriter(err));
        String[] args = Stream.concat(Stream.of("run", plan.toString(), "--out", out.toString(), "--host", "127.0.0.1",
                "--port", "9"), properties.stream()).toArray(String[]::new);
        assertEquals(ExitCodes.BAD_INPUT, cli.execute(args), err.toString());
        assertTrue(err.toString().startsWith("stampede run: bad.jmx: sampler 'GET /': " + message), err.toString());
        assertFalse(Files.exists(out), "no results folder");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(plan), files.toList(), "nothing written beside the plan");
        }
        assertEquals("", console.toString(), "nothing started, so nothing said on stdout");

        StringWriter doctorErr = new StringWriter();
        CommandLine doctor = StampedeCommand.commandLine();
        doctor.setOut(new PrintWriter(new StringWriter()));
        doctor.setErr(new PrintWriter(doctorErr));
        String[] doctorArgs = Stream.concat(Stream.of("doctor", "--plan", plan.toString()), properties.stream())
                .toArray(String[]::new);
        assertEquals(ExitCodes.BAD_INPUT, doctor.execute(doctorArgs), doctorErr.toString());
        assertTrue(doctorErr.toString().startsWith("stampede doctor: --plan bad.jmx: sampler 'GET /': " + message),
                doctorErr.toString());
    }

    @Test
    void thePlanWideProtocolPropertyIsCheckedToo(@TempDir Path dir) throws Exception {
        Path plan = SamplerPlans.write(dir.resolve("ok.jmx"), "HTTPSamplerProxy", Map.of(), Map.of());
        Path out = dir.resolve("out");
        StringWriter err = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        assertEquals(ExitCodes.BAD_INPUT, cli.execute("run", plan.toString(), "--out", out.toString(), "-J",
                "stampede.protocol=h2-prior"), err.toString());
        assertTrue(err.toString().startsWith("stampede run: -J stampede.protocol: 'h2-prior' is not a protocol; enter"
                + " http/1.1, h2"), err.toString());
        assertFalse(Files.exists(out), "no results folder");
    }
}
