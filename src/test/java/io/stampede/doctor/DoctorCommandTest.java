/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line as users call it, on this machine. */
class DoctorCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        String[] all = new String[args.length + 1];
        all[0] = "doctor";
        System.arraycopy(args, 0, all, 1, args.length);
        return cli.execute(all);
    }

    @Test
    void printsChecksAndASummaryAndExitsWithTheVerdict() {
        int rc = run("--target", "127.0.0.1:9", "--connections", "10");
        assertTrue(rc == ExitCodes.OK || rc == ExitCodes.WARNINGS || rc == ExitCodes.CHECK_FAILED, "rc " + rc + "\n" + err);
        String text = out.toString();
        assertTrue(text.contains("new connections/s"), text);
        assertTrue(text.contains("TIME_WAIT sockets now"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("doctor: ")), text);
        assertTrue(text.contains("target 127.0.0.1:9 (loopback)"), text);
    }

    @Test
    void jsonHasTheSameVerdictAsTheExitStatus() {
        int rc = run("--json", "--rate", "1");
        String json = out.toString();
        assertTrue(json.startsWith("{\n  \"verdict\": \""), json);
        assertTrue(json.contains("\"exit\": " + rc + ","), json);
    }

    @Test
    void impossibleRateFails() {
        assertEquals(ExitCodes.CHECK_FAILED, run("--target", "192.0.2.1:80", "--rate", "10000000"));
        assertTrue(out.toString().contains("FAIL  new connections/s"), out.toString());
    }

    @Test
    void badInputIsRefusedWithoutPartialOutput(@TempDir Path dir) throws Exception {
        assertEquals(ExitCodes.BAD_INPUT, run("--target", "localhost"));
        assertTrue(err.toString().contains("--target: expected HOST:PORT"), err.toString());
        assertEquals(ExitCodes.BAD_INPUT, run("--connections", "0"));
        assertTrue(err.toString().contains("--connections must be at least 1"), err.toString());
        assertEquals(ExitCodes.BAD_INPUT, run("--rate", "fast"));
        assertEquals(ExitCodes.BAD_INPUT, run("-J", "a=b"));
        assertTrue(err.toString().contains("-J: properties are only used with --plan"), err.toString());
        Path junk = Files.writeString(dir.resolve("x.jmx"), "<jmeterTestPlan/>");
        assertEquals(ExitCodes.BAD_INPUT, run("--plan", junk.toString()));
        assertTrue(err.toString().contains("--plan x.jmx: not a JMeter plan"), err.toString());
        assertEquals("", out.toString());
    }
}
