/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cli.ExitCodes;
import io.stampede.cli.StampedeCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `stampede run --share`: bad input is refused before anything is written or started. */
class ShareOptionTest {

    private static final Path PLANS = Path.of(System.getProperty("user.dir")).resolve("../plans").normalize();

    private static String run(int expected, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = StampedeCommand.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        assertEquals(expected, cli.execute(args), err.toString());
        return err.toString();
    }

    @Test
    void aBadShareIsNamedWithTheFix(@TempDir Path dir) {
        Path out = dir.resolve("out");
        String err = run(ExitCodes.BAD_INPUT, "run", PLANS.resolve("quickstart.jmx").toString(), "--share", "4/3",
                "--out", out.toString());
        assertTrue(err.startsWith("stampede run: --share 4/3: I must be 1 to N"), err);
        assertTrue(Files.notExists(out));
    }

    @Test
    void anElementThatCannotBeDividedIsNamedAndNothingIsWritten(@TempDir Path dir) throws Exception {
        Path plan = Files.writeString(dir.resolve("ultimate.jmx"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
                  <hashTree>
                    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="plan"/>
                    <hashTree>
                      <kg.apc.jmeter.threads.UltimateThreadGroup testclass="kg.apc.jmeter.threads.UltimateThreadGroup"
                          testname="Waves"/>
                      <hashTree/>
                    </hashTree>
                  </hashTree>
                </jmeterTestPlan>
                """);
        Path out = dir.resolve("out");
        String err = run(ExitCodes.BAD_INPUT, "run", plan.toString(), "--share", "1/2", "--out", out.toString());
        assertTrue(err.startsWith("stampede run: ultimate.jmx: UltimateThreadGroup 'Waves' cannot be divided into 2"
                + " shares: Stampede divides the Thread Group"), err);
        assertTrue(Files.notExists(out));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.count(), "only the plan itself");
        }
    }

    @Test
    void sharesAreForIndependentInjectorsNotRemoteEngines(@TempDir Path dir) {
        String err = run(ExitCodes.BAD_INPUT, "run", PLANS.resolve("quickstart.jmx").toString(), "--share", "1/2",
                "--remote", "127.0.0.1:1", "--out", dir.resolve("out").toString());
        assertTrue(err.startsWith("stampede run: --share with --remote"), err);
    }

    @Test
    void wholePlanPerEngineAndMetricsOptionsNeedTheirMainOption(@TempDir Path dir) {
        String plan = PLANS.resolve("quickstart.jmx").toString();
        String out = dir.resolve("out").toString();
        assertTrue(run(ExitCodes.BAD_INPUT, "run", plan, "--whole-plan-per-engine", "--out", out)
                .startsWith("stampede run: --whole-plan-per-engine works with --remote only"));
        assertTrue(run(ExitCodes.BAD_INPUT, "run", plan, "--metrics-linger", "3", "--out", out)
                .startsWith("stampede run: --metrics-linger works with --metrics only: add --metrics PORT"));
        assertTrue(run(ExitCodes.BAD_INPUT, "run", plan, "--metrics", "70000", "--out", out)
                .startsWith("stampede run: --metrics 70000 is not a TCP port"));
        assertTrue(Files.notExists(dir.resolve("out")));
    }

    @Test
    void aStartTimeIsAnInstantAheadAndOnlyForShares(@TempDir Path dir) {
        String plan = PLANS.resolve("quickstart.jmx").toString();
        String out = dir.resolve("out").toString();
        assertTrue(run(ExitCodes.BAD_INPUT, "run", plan, "--share", "1/2", "--start-at", "09:30", "--out", out)
                .startsWith("stampede run: --start-at 09:30: give a moment in UTC as 2026-11-28T09:30:00Z"));
        assertTrue(run(ExitCodes.BAD_INPUT, "run", plan, "--share", "1/2", "--start-at", "2020-01-01T00:00:00Z",
                "--out", out).startsWith("stampede run: --start-at 2020-01-01T00:00:00Z has passed"));
        assertTrue(run(ExitCodes.BAD_INPUT, "run", plan, "--start-at", "2999-01-01T00:00:00Z", "--out", out)
                .startsWith("stampede run: --start-at works with --share only"));
        assertTrue(Files.notExists(dir.resolve("out")));
    }
}
