/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ClusterCommandTest {

    @TempDir
    Path tmp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = new CommandLine(new ClusterCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void rendersADescription() throws IOException {
        Path yaml = Files.writeString(tmp.resolve("c.yaml"), Fixtures.LVS);
        assertEquals(0, run("render", yaml.toString(), "-o", tmp.resolve("out").toString()));
        assertTrue(Files.isRegularFile(tmp.resolve("out/director/lvs1/keepalived.conf")));
        assertTrue(out.toString().contains("28 files for cluster web"));
    }

    @Test
    void operatorReviewRefusalsExitTwoAndWriteNothing() throws IOException {
        Path yaml = Files.writeString(tmp.resolve("c.yaml"), Fixtures.LVS.replace("directors:\n",
                "directors:\n  interface: all\n") + "health_check: {path: //health}\n");
        assertEquals(2, run("render", yaml.toString(), "-o", tmp.resolve("out").toString()));
        assertFalse(Files.exists(tmp.resolve("out")));
        assertTrue(err.toString().contains("directors.interface: 'all' cannot carry VRRP"), err.toString());
        assertTrue(err.toString().contains("health_check.path: '//health' reaches nginx as /health"), err.toString());
        assertTrue(err.toString().contains("fix: write path: /health"), err.toString());
    }

    @Test
    void refusedInputWritesNothingAndExitsNonZero() throws IOException {
        Path yaml = Files.writeString(tmp.resolve("c.yaml"), Fixtures.LVS.replace("10.0.0.11", "10.0.0.100"));
        assertEquals(2, run("render", yaml.toString(), "-o", tmp.resolve("out").toString()));
        assertFalse(Files.exists(tmp.resolve("out")));
        assertTrue(err.toString().contains("realservers[0].address: 10.0.0.100 is the VIP"), err.toString());
        assertTrue(err.toString().contains("fix:"), err.toString());
    }

    @Test
    void http2WithoutTlsMaterialIsRefusedNamingTheFieldAndTheFix() throws IOException {
        Path yaml = Files.writeString(tmp.resolve("c.yaml"), Fixtures.HAPROXY.replace("maxconn: 9000",
                "maxconn: 9000\n  http2: true"));
        assertEquals(2, run("render", yaml.toString(), "-o", tmp.resolve("out").toString()));
        assertFalse(Files.exists(tmp.resolve("out")));
        assertTrue(err.toString().contains("haproxy.http2: needs a TLS port"), err.toString());
        assertTrue(err.toString().contains("fix: add tls: {certificate:"), err.toString());
    }

    @Test
    void validateOfAMissingDirectoryFails() {
        assertEquals(2, run("validate", tmp.resolve("nope").toString()));
    }

    @Test
    void everySubcommandHasHelp() {
        for (String sub : new String[] {"render", "validate", "lab"}) {
            assertEquals(0, run(sub, "--help"));
        }
        assertTrue(out.toString().contains("negative") || out.toString().contains("without the VIP"));
    }

    @Test
    void renderForceNeverDeletesTheCurrentFolder() throws Exception {
        // a separate process whose current folder is a scratch folder: a regression must not take the build's own
        Path work = tmp.resolve("work");
        Files.createDirectories(work);
        Files.writeString(work.resolve("cluster.yaml"), Fixtures.LVS);
        Path log = tmp.resolve("render.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "io.stampede.cli.StampedeCommand", "cluster", "render",
                "cluster.yaml", "-o", ".", "--force").directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        String said = Files.readString(log);
        assertEquals(6, p.exitValue(), said);
        assertTrue(said.contains("is the current folder or holds it") && said.contains("-o rendered"), said);
        assertEquals(Fixtures.LVS, Files.readString(work.resolve("cluster.yaml")), "the description is still there");
        try (var files = Files.list(tmp)) {
            assertEquals(List.of("render.log", "work"), files.map(f -> f.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void aTlsPathClimbingOutOfTheLabRootIsRefusedWithTheFieldAndTheFix() throws IOException {
        Path outside = tmp.resolve("x.pem");
        Path yaml = tmp.resolve("c.yaml");
        Files.writeString(yaml, Fixtures.LVS + "ports: [80, 443]\ntls: {certificate: /../../../.." + outside + "}\n");
        assertEquals(2, run("render", yaml.toString(), "-o", tmp.resolve("out").toString()));
        assertTrue(err.toString().contains("tls.certificate") && err.toString().contains("'..' segment")
                && err.toString().contains("write the plain path " + outside), err.toString());
        assertFalse(Files.exists(tmp.resolve("out")));
        assertFalse(Files.exists(outside));
    }
}
