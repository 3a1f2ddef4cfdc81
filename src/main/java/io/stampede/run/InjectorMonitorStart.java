/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.cli.CliNames;
import io.stampede.injectorhealth.InjectorSeries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Starts the plugin's injector monitor inside JMeter for any plan: JMeter runs the file named by
 * {@code jsr223.init.file} at start-up, in the class loader that holds lib/ext, so a one-line Groovy script can
 * start it; the monitor writes injector.csv into the run folder. `stampede server` starts it the same way in each
 * engine, which also sends its rows to the controller of a distributed run (io.stampede.distributed.InjectorCollector).
 */
public final class InjectorMonitorStart {
    static final String SCRIPT = "injector-monitor.groovy";

    private InjectorMonitorStart() {}

    /** The run's JMeter properties plus the two that start the monitor; writes the script into {@code dir}. */
    static Map<String, String> properties(Map<String, String> given, Path dir) {
        return properties(given, dir.resolve(SCRIPT), dir.resolve(InjectorSeries.FILE));
    }

    /** The given JMeter properties plus the two that start the monitor writing {@code csv}; writes {@code script}. */
    public static Map<String, String> properties(Map<String, String> given, Path script, Path csv) {
        try {
            Files.writeString(script, "// Written by Stampede: starts its injector monitor (" + csv.getFileName()
                    + ")\nio.stampede.injector.InjectorMonitor.start(props.getProperty('" + CliNames.INJECTOR_CSV + "'))\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> p = new LinkedHashMap<>(given);
        p.putIfAbsent("jsr223.init.file", script.toString());
        p.put(CliNames.INJECTOR_CSV, csv.toString());
        return p;
    }
}
