/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injectorhealth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.names.PluginNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InjectorShareTest {

    /** A quiet second: little CPU, no GC, 1 ms stalls; loopLag as given ("" = no engine ran). */
    private static String row(int second, String loopLag) {
        return second + ",0.200,0.300,2,0.0,0,1.00,50.0," + loopLag;
    }

    private static InjectorShare share(Path dir, List<String> rows) throws IOException {
        List<String> lines = new ArrayList<>(List.of(PluginNames.INJECTOR_SERIES_HEADER));
        lines.addAll(rows);
        Files.write(dir.resolve(InjectorSeries.FILE), lines);
        Optional<InjectorSeries> series = InjectorSeries.readIfPresent(dir);
        assertTrue(series.isPresent());
        return new InjectorShare(0, 0, 0, series, rows.size() * 1000L);
    }

    @Test
    void aSecondWithAnEventLoop80MsLateNamesTheInjector(@TempDir Path dir) throws IOException {
        List<String> rows = new ArrayList<>();
        for (int s = 0; s < 20; s++) {
            rows.add(row(s, s == 7 ? "80.40" : "0.30"));
        }
        InjectorShare share = share(dir, rows);
        assertTrue(share.suspect(), share.line());
        assertTrue(share.line().contains("event loops lag p90 0.3 ms, max 80 ms"), share.line());
        assertTrue(share.line().contains("SUSPECT injector: the event loops ran tasks up to 80 ms late"),
                share.line());
    }

    @Test
    void theEngineStartingSecondIsShownButNotJudged(@TempDir Path dir) throws IOException {
        List<String> rows = new ArrayList<>(List.of(row(0, "")));
        for (int s = 1; s < 16; s++) {
            rows.add(row(s, s == 1 ? "122.70" : "0.40"));
        }
        InjectorShare starting = share(dir, rows);
        assertFalse(starting.suspect(), starting.line());
        assertTrue(starting.line().contains("max 123 ms"), starting.line());

        rows.set(9, row(9, "51.00")); // the same lag once the engine runs is judged
        InjectorShare later = share(dir, rows);
        assertTrue(later.line().contains("SUSPECT injector: the event loops ran tasks up to 51 ms late"), later.line());
    }

    @Test
    void loopsBelowTheThresholdAreFiguresOnly(@TempDir Path dir) throws IOException {
        List<String> rows = new ArrayList<>();
        for (int s = 0; s < 20; s++) {
            rows.add(row(s, s < 10 ? "2.00" : "49.90"));
        }
        InjectorShare share = share(dir, rows);
        assertFalse(share.suspect(), share.line());
        assertTrue(share.line().contains("event loops lag p90 49.9 ms, max 50 ms"), share.line());
        assertTrue(share.line().endsWith("(below the thresholds)"), share.line());
    }

    @Test
    void secondsWithoutAnEngineAndOldFilesHaveNoLoopFigure(@TempDir Path dir) throws IOException {
        InjectorShare none = share(dir, List.of(row(0, ""), row(1, ""), row(2, "")));
        assertTrue(none.line().contains("event loops not probed (no Stampede engine ran)"), none.line());
        assertFalse(none.suspect());

        // a file of the 8 columns before loop lag existed still reads
        Files.write(dir.resolve(InjectorSeries.FILE), List.of(PluginNames.INJECTOR_SERIES_HEADER.replace(",loop_lag_max_ms", ""),
                "0,0.200,0.300,2,0.0,0,1.00,50.0", "1,0.200,0.300,2,0.0,0,1.00,50.0"));
        InjectorSeries old = InjectorSeries.readIfPresent(dir).orElseThrow();
        assertEquals(2, old.rows().size());
        assertFalse(old.hasLoopLag());

        // the engine starts at the first Stampede sample: the seconds before it do not count
        InjectorSeries later = share(dir, List.of(row(0, ""), row(1, "3.00"), row(2, "5.00"))).series().orElseThrow();
        assertTrue(later.hasLoopLag());
        assertEquals(5.0, later.maxLoopLagMs());
        assertEquals(5.0, later.p90LoopLagMs());
    }
}
