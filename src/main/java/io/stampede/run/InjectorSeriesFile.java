/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.cli.CliNames;
import io.stampede.injectorhealth.InjectorSeries;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the plugin's injector monitor writes inside JMeter: the plugin's element that `stampede run` puts first in
 * every plan it runs ({@link io.stampede.share.LoadedPlan}) starts it at the test's start, no script engine needed,
 * writing where this property says: injector.csv in the run folder, or for `stampede server` a series beside each
 * engine's log, whose rows also go to the controller of a distributed run (io.stampede.distributed.InjectorCollector).
 */
public final class InjectorSeriesFile {

    private InjectorSeriesFile() {}

    /** The run's JMeter properties plus where the monitor writes: injector.csv in {@code dir}. */
    static Map<String, String> inRunFolder(Map<String, String> given, Path dir) {
        return writingTo(given, dir.resolve(InjectorSeries.FILE));
    }

    /** The given JMeter properties plus where the monitor writes: {@code csv}. */
    public static Map<String, String> writingTo(Map<String, String> given, Path csv) {
        Map<String, String> p = new LinkedHashMap<>(given);
        p.put(CliNames.INJECTOR_CSV, csv.toString());
        return p;
    }
}
