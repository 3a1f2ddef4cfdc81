/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.distributed.InjectorCollector;
import io.stampede.distributed.RemoteEngine;
import io.stampede.distributed.RemoteEngines;
import io.stampede.names.PluginNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunReportEnginesTest {

    @Test
    void eachEngineIsFlaggedOnItsOwnAndAnEngineWithoutSeriesIsNamedInOneLine(@TempDir Path dir) throws Exception {
        RemoteEngines engines = RemoteEngines.parse("127.0.0.1:41099,127.0.0.1:41199,127.0.0.1:41299");
        List<String> quiet = new ArrayList<>(List.of(PluginNames.INJECTOR_SERIES_HEADER));
        List<String> starved = new ArrayList<>(List.of(PluginNames.INJECTOR_SERIES_HEADER));
        for (int s = 0; s < 10; s++) {
            quiet.add(s + ",0.300,0.600,2,0.0,0,1.00,60.0,0.40");
            starved.add(s + ",0.300,1.950,2,0.0,0,90.00,60.0,120.00");
        }
        Files.write(InjectorCollector.file(dir, RemoteEngine.parse("127.0.0.1:41099")), quiet);
        Files.write(InjectorCollector.file(dir, RemoteEngine.parse("127.0.0.1:41199")), starved);
        StringWriter text = new StringWriter();
        RunReport report = new RunReport(new PrintWriter(text, true), RunFiles.in(dir, false));
        report.engines(engines, 10_000);
        String out = text.toString();
        assertTrue(out.contains("engine 127.0.0.1:41099 injector: CPU JMeter 0.30, machine 0.60 of 2 cores"), out);
        assertTrue(out.contains("event loops lag p90 0.4 ms, max 0 ms (below the thresholds)"), out);
        assertTrue(out.contains("engine 127.0.0.1:41199 SUSPECT injector: threads waited up to 90 ms for the CPU;"
                + " the event loops ran tasks up to 120 ms late; CPU 1.95 of 2 cores busy"), out);
        assertTrue(out.lines().noneMatch(l -> l.contains("41099") && l.contains("SUSPECT")), out);
        assertTrue(out.contains("engine 127.0.0.1:41299: no injector series: not started by `stampede server` (a"
                + " user's own jmeter-server?)"), out);
        assertTrue(out.contains("engine 127.0.0.1:41099 series injector-127.0.0.1_41099.csv"), out);
    }
}
