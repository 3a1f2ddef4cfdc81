/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `stampede compare` over folders: the report, and every refusal (exit 2, the input named, nothing written). */
class CompareCommandTest {

    record Result(int exit, String out, String err) {}

    static Result compare(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new CompareCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void twoFoldersAreComparedIntoTextAndAPage(@TempDir Path tmp) throws Exception {
        Path a = SyntheticRun.write(tmp.resolve("fast"), 1, 0, 20, 300);
        Path b = SyntheticRun.write(tmp.resolve("slow"), 2, 5000, 20, 300);
        Path out = tmp.resolve("cmp");
        Result r = compare(a.toString(), b.toString(), "-o", out.toString());
        assertEquals(0, r.exit, r.err);
        assertTrue(r.out.contains("slow is 5.0") && r.out.contains("ms slower at p50 (±"), r.out);
        assertTrue(r.out.contains("label GET /a") && r.out.contains("label POST /b"), "per label:\n" + r.out);
        assertTrue(r.out.contains("errors    12 (connection reset 12)"), r.out);
        assertTrue(Files.readString(out.resolve("compare.txt")).contains("ms slower at p50"));
        String html = Files.readString(out.resolve("compare.html"));
        assertTrue(html.contains("uPlot") && html.contains("\"names\":[\"fast\",\"slow\"]"), "vendored, offline");
        assertFalse(html.contains("<script src="), "no script from the network");
    }

    @Test
    void serverLogsShowTheBlockingTimeBesideTheLatencies(@TempDir Path tmp) throws Exception {
        Path a = SyntheticRun.write(tmp.resolve("a"), 1, 0, 5, 100);
        Path b = SyntheticRun.write(tmp.resolve("b"), 2, 0, 5, 100);
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            log.append(io.stampede.blocking.BlockingTimesTest.line("10.0.0.12:80", 1_795_000_000_000_000L + i * 1000L,
                    5200, 1)).append('\n');
        }
        Path serverLog = Files.writeString(tmp.resolve("web2.log"), log);
        Result r = compare(a.toString(), b.toString(), "--server-log", "b=" + serverLog, "-o",
                tmp.resolve("cmp").toString());
        assertEquals(0, r.exit, r.err);
        assertTrue(r.out.contains("blocking time between HAProxy and the realservers (--server-log):"), r.out);
        assertTrue(r.out.matches("(?s).*10\\.0\\.0\\.12:80 +100 +5\\.\\d.*"), r.out);
        Path out = tmp.resolve("cmp2");
        Result bad = compare(a.toString(), b.toString(), "--server-log", "nope=" + serverLog, "-o", out.toString());
        assertEquals(2, bad.exit);
        assertTrue(bad.err.contains("--server-log nope=") && bad.err.contains("[a, b]"), bad.err);
        Result unstamped = compare(a.toString(), b.toString(), "--server-log", "a=" + a.resolve("summary.txt"),
                "-o", out.toString());
        assertEquals(2, unstamped.exit);
        assertTrue(unstamped.err.contains("xrs= fields"), unstamped.err);
        assertFalse(Files.exists(out));
    }

    @Test
    void theSameRunTwiceIsNoSignificantDifference(@TempDir Path tmp) throws Exception {
        Path a = SyntheticRun.write(tmp.resolve("a"), 1, 0, 20, 300);
        Path b = SyntheticRun.write(tmp.resolve("b"), 2, 0, 20, 300);
        Result r = compare(a.toString(), b.toString(), "-o", tmp.resolve("cmp").toString());
        assertEquals(0, r.exit, r.err);
        assertTrue(r.out.contains("b: no significant difference from a"), r.out);
    }

    @Test
    void runsOfDifferentPlansAreComparedWithAWarning(@TempDir Path tmp) throws Exception {
        Path a = SyntheticRun.write(tmp.resolve("a"), 1, 0, 5, 100);
        Path b = SyntheticRun.write(tmp.resolve("b"), 2, 0, 5, 100);
        Files.writeString(b.resolve("summary.txt"), "stampede run: other.jmx against 127.0.0.1:1\n");
        Result r = compare(a.toString(), b.toString(), "-o", tmp.resolve("cmp").toString());
        assertEquals(0, r.exit, r.err);
        assertTrue(r.out.contains("WARNING: the runs come from different plans (synthetic.jmx, other.jmx)"), r.out);
    }

    @Test
    void badInputIsRefusedWithExit2NamingItAndNothingIsWritten(@TempDir Path tmp) throws Exception {
        Path good = SyntheticRun.write(tmp.resolve("good"), 1, 0, 5, 100);
        Path noJtl = Files.createDirectories(tmp.resolve("empty-folder"));
        Path emptyJtl = Files.createDirectories(tmp.resolve("no-samples"));
        Files.writeString(emptyJtl.resolve("results.jtl"), SyntheticRun.HEADER + "\n");
        Path plan = Files.writeString(tmp.resolve("p.jmx"), "<jmeterTestPlan/>");
        Path out = tmp.resolve("cmp");
        List<String[]> cases = new ArrayList<>();
        List<String> named = new ArrayList<>();
        cases.add(new String[] {good.toString(), tmp.resolve("missing").toString(), "-o", out.toString()});
        named.add("no such folder: " + tmp.resolve("missing"));
        cases.add(new String[] {good.toString(), noJtl.toString(), "-o", out.toString()});
        named.add(noJtl + " holds no results.jtl");
        cases.add(new String[] {good.toString(), emptyJtl.toString(), "-o", out.toString()});
        named.add("has no samples");
        cases.add(new String[] {good.toString(), "-o", out.toString()});
        named.add("give at least two result folders");
        cases.add(new String[] {"--plan", plan.toString(), "--target", "a=127.0.0.1:1", "--target",
            "b=127.0.0.1:2", "--rounds", "0", "-o", out.toString()});
        named.add("--rounds 0: give at least 1");
        for (String bad : new String[] {"a127.0.0.1:80", "a=127.0.0.1", "a=127.0.0.1:http", "a=127.0.0.1:70000",
            "a b=127.0.0.1:80", "=127.0.0.1:80"}) {
            cases.add(new String[] {"--plan", plan.toString(), "--target", bad, "--target", "b=127.0.0.1:2",
                "-o", out.toString()});
            named.add("--target " + bad + ":");
        }
        cases.add(new String[] {"--plan", tmp.resolve("nope.jmx").toString(), "--target", "a=127.0.0.1:1",
            "--target", "b=127.0.0.1:2", "-o", out.toString()});
        named.add("--plan " + tmp.resolve("nope.jmx") + ": no such file");
        cases.add(new String[] {"--plan", plan.toString(), "--target", "a=127.0.0.1:1", "-o", out.toString()});
        named.add("at least two --target");
        for (int i = 0; i < cases.size(); i++) {
            Result r = compare(cases.get(i));
            assertEquals(2, r.exit, String.join(" ", cases.get(i)) + "\n" + r.out + r.err);
            assertTrue(r.err.contains(named.get(i)), "names the input: " + named.get(i) + "\n" + r.err);
            assertFalse(Files.exists(out), "nothing written for " + String.join(" ", cases.get(i)));
        }
        Files.createDirectories(out.resolve("x"));
        Result r = compare(good.toString(), good.toString(), "-o", out.toString());
        assertEquals(2, r.exit);
        assertTrue(r.err.contains("is not empty"), r.err);
    }
}
