/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class JMeterLogLevelsOptionTest {

    @Command(name = "run")
    static final class Run {
        @Mixin
        JMeterLogLevelsOption levels;
    }

    private static List<String> parse(String... args) {
        Run run = new Run();
        new CommandLine(run).parseArgs(args);
        return run.levels.jmeterArguments();
    }

    @Test
    void eachLevelBecomesJMetersOwnDashL() {
        assertEquals(List.of("-Ljmeter.threads=WARN", "-Lio.stampede=DEBUG", "-LERROR"),
                parse("-L", "jmeter.threads=warn", "-Lio.stampede=DEBUG", "-L", "ERROR"));
        assertEquals(List.of(), parse());
    }

    @Test
    void aLevelJMeterWouldOnlyWarnAboutIsRefusedNamingTheFix() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse("-L", "jmeter.threads=QUIET"));
        assertTrue(e.getMessage().startsWith("-L jmeter.threads=QUIET: give category=LEVEL"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> parse("-L", "=WARN"));
    }
}
