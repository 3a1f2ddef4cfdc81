/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DashboardCommandLineTest {

    private static final JMeterInstallation HOME = new JMeterInstallation(Path.of("/opt/jmeter"), List.of());

    @Test
    void runWritesMillisecondTimestampsButTheDashboardLeavesTheFormatToJMeterSoItsDatesAreDates() {
        List<String> run = JMeterCommandLine.run(HOME, List.of(), Path.of("p.jmx"), Path.of("r.jtl"),
                Path.of("j.log"), Map.of());
        assertTrue(run.contains("-Jjmeter.save.saveservice.timestamp_format=ms"), run.toString());
        List<String> dashboard = JMeterCommandLine.dashboard(HOME, List.of(), Path.of("r.jtl"), Path.of("d.log"),
                Path.of("dashboard"), Map.of());
        assertFalse(dashboard.stream().anyMatch(a -> a.contains("timestamp_format")), dashboard.toString());
        assertTrue(dashboard.contains("-Jjmeter.reportgenerator.statistic_window=-1"), dashboard.toString());

        List<String> users = JMeterCommandLine.dashboard(HOME, List.of(), Path.of("r.jtl"), Path.of("d.log"),
                Path.of("dashboard"), Map.of("jmeter.save.saveservice.timestamp_format", "ms"));
        assertTrue(users.contains("-Jjmeter.save.saveservice.timestamp_format=ms"), "a user's own -J stands");
    }
}
