/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.cli.CliNames;
import io.stampede.metrics.RunMetrics;
import io.stampede.names.PluginNames;
import io.stampede.results.StampedeColumns;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * `stampede server --metrics PORT`: the engine's own figures for Prometheus during the runs it executes, with the
 * same metrics `stampede run --metrics` serves ({@link RunMetrics}). The engine spools its samples into a folder
 * next to its log, which {@link EngineSamples} empties as it reads and removes at the end, and its injector monitor
 * writes its series next to its log too; the counters add up over the engine's runs, as counters do. Without
 * --metrics nothing is spooled and nothing served.
 */
final class EngineMetrics implements AutoCloseable {

    private final Optional<RunMetrics> metrics;
    private final Path samplesDir;
    private final EngineSamples samples;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EngineMetrics(Optional<RunMetrics> metrics, Path samplesDir, EngineSamples samples) {
        this.metrics = metrics;
        this.samplesDir = samplesDir;
        this.samples = samples;
    }

    /** The engine's injector series: next to its log, named after it. */
    static Path series(Path logFile) {
        return beside(logFile, "-injector.csv");
    }

    /** Where the engine spools its samples: a folder next to its log, named after it. */
    static Path samplesFolder(Path logFile) {
        return beside(logFile, "-samples");
    }

    private static Path beside(Path logFile, String suffix) {
        return logFile.resolveSibling(logFile.getFileName().toString().replaceFirst("\\.log$", "") + suffix);
    }

    /**
     * Starts reading what the engine will spool, when {@code live} serves metrics. Rows a killed server left in the
     * folder belong to no run of this engine: they are removed first.
     */
    static EngineMetrics start(Optional<RunMetrics> live, Path logFile, PrintWriter err) throws IOException {
        if (live.isEmpty()) {
            return new EngineMetrics(live, null, null);
        }
        live.get().seriesFile(series(logFile));
        Path dir = samplesFolder(logFile);
        if (Files.isDirectory(dir)) {
            try (Stream<Path> left = Files.list(dir)) {
                for (Path p : left.toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        // owner-only: the rows hold the plan's labels and response messages
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return new EngineMetrics(live, dir, EngineSamples.start(dir, live.get(), err));
    }

    /**
     * The engine's JMeter properties for its metrics: where to spool its samples, and Stampede's sample variables
     * (open connections, µs latencies), which its samplers then set as in a local run.
     */
    Map<String, String> jmeterProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        if (samplesDir != null) {
            p.put(PluginNames.ENGINE_SAMPLES_DIR, samplesDir.toString());
            p.put(CliNames.SAMPLE_VARIABLES, StampedeColumns.sampleVariables(null));
        }
        return p;
    }

    /** The last samples read, the folder removed, the endpoint closed; called at the end and on Ctrl-C. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (samples != null) {
            samples.close();
        }
        metrics.ifPresent(RunMetrics::close);
    }
}
