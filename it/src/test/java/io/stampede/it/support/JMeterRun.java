/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One non-GUI JMeter run as a child process:
 * {@code java -Xms512m -Xmx1g -jar bin/ApacheJMeter.jar -n -t plan -l jtl -j log -Jname=value...}.
 * The JTL is a CSV with a header (see {@link JtlFormat}); -J properties given here override its settings.
 */
public final class JMeterRun {

    private final JMeterHome home;
    private final Path plan;
    private final Path workDir;
    private final Map<String, String> jtlFormat;
    private final Map<String, String> properties;
    private final List<String> jvmOptions;
    private final Duration timeout;
    private final Path javaHome;
    /** JMeter's -L options: log4j2 category → level ({@code -J log_level...} properties change nothing in 5.6.3). */
    private final Map<String, String> logLevels;

    private JMeterRun(JMeterHome home, Path plan, Path workDir, Map<String, String> jtlFormat,
            Map<String, String> properties, List<String> jvmOptions, Duration timeout) {
        this(home, plan, workDir, jtlFormat, properties, jvmOptions, timeout, Path.of(System.getProperty("java.home")),
                Map.of());
    }

    private JMeterRun(JMeterHome home, Path plan, Path workDir, Map<String, String> jtlFormat,
            Map<String, String> properties, List<String> jvmOptions, Duration timeout, Path javaHome,
            Map<String, String> logLevels) {
        this.home = home;
        this.plan = plan;
        this.workDir = workDir;
        this.jtlFormat = Map.copyOf(jtlFormat);
        this.properties = Map.copyOf(properties);
        this.jvmOptions = List.copyOf(jvmOptions);
        this.timeout = timeout;
        this.javaHome = javaHome;
        this.logLevels = Map.copyOf(logLevels);
    }

    /** A run of {@code plan} writing {@code jmeter.jtl}, {@code jmeter.log} and {@code jmeter.out} into workDir. */
    public static JMeterRun of(JMeterHome home, Path plan, Path workDir) {
        if (!Files.isRegularFile(plan)) {
            throw new IllegalArgumentException("no test plan at " + plan);
        }
        return new JMeterRun(home, plan, workDir, JtlFormat.csvWithAllColumns(), Map.of(), List.of("-Xms512m", "-Xmx1g"),
                Duration.ofMinutes(2));
    }

    public JMeterRun property(String name, Object value) {
        Map<String, String> copy = new LinkedHashMap<>(properties);
        copy.put(name, String.valueOf(value));
        return new JMeterRun(home, plan, workDir, jtlFormat, copy, jvmOptions, timeout, javaHome, logLevels);
    }

    public JMeterRun properties(Map<String, ?> more) {
        JMeterRun run = this;
        for (Map.Entry<String, ?> e : more.entrySet()) {
            run = run.property(e.getKey(), e.getValue());
        }
        return run;
    }

    public JMeterRun jvmOptions(String... options) {
        return new JMeterRun(home, plan, workDir, jtlFormat, properties, List.of(options), timeout, javaHome,
                logLevels);
    }

    /** One more JVM option after the others (e.g. a -D system property). */
    public JMeterRun jvmOption(String option) {
        List<String> more = new ArrayList<>(jvmOptions);
        more.add(option);
        return new JMeterRun(home, plan, workDir, jtlFormat, properties, more, timeout, javaHome, logLevels);
    }

    /** The JTL's -J save-service properties; {@link JtlFormat#csvWithAllColumns()} unless changed here. */
    public JMeterRun jtlFormat(Map<String, String> saveServiceProperties) {
        return new JMeterRun(home, plan, workDir, saveServiceProperties, properties, jvmOptions, timeout, javaHome,
                logLevels);
    }

    /**
     * A log4j2 level for a category of jmeter.log, as JMeter's {@code -L category=level} sets it (a category starting
     * with {@code jmeter} means {@code org.apache.jmeter...}).
     */
    public JMeterRun logLevel(String category, String level) {
        Map<String, String> copy = new LinkedHashMap<>(logLevels);
        copy.put(category, level);
        return new JMeterRun(home, plan, workDir, jtlFormat, properties, jvmOptions, timeout, javaHome, copy);
    }

    public JMeterRun timeout(Duration limit) {
        return new JMeterRun(home, plan, workDir, jtlFormat, properties, jvmOptions, limit, javaHome, logLevels);
    }

    /** Runs JMeter on the Java installed at {@code home} instead of the one running the test. */
    public JMeterRun java(Path home) {
        return new JMeterRun(this.home, plan, workDir, jtlFormat, properties, jvmOptions, timeout, home, logLevels);
    }

    public Path jtl() {
        return workDir.resolve("jmeter.jtl");
    }

    public Path log() {
        return workDir.resolve("jmeter.log");
    }

    /** Runs to the end (or the timeout) and returns the outcome. */
    public Result run() {
        return start().await();
    }

    /** Starts JMeter and returns at once, for callers that watch the process while it runs (the benchmark). */
    public Running start() {
        try {
            Files.createDirectories(workDir);
            Files.deleteIfExists(jtl());
            Files.deleteIfExists(log());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + workDir, e);
        }
        List<String> command = new ArrayList<>();
        command.add(javaHome.resolve("bin").resolve("java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", home.launcher().toString(), "-n", "-t", plan.toString(),
                "-l", jtl().toString(), "-j", log().toString()));
        Map<String, String> all = new LinkedHashMap<>(jtlFormat);
        // No UDP shutdown listener: concurrent runs on one machine would compete for ports 4445-4455.
        all.put("jmeterengine.nongui.port", "0");
        all.putAll(properties);
        all.forEach((name, value) -> command.add("-J" + name + "=" + value));
        logLevels.forEach((category, level) -> command.add("-L" + category + "=" + level));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("jmeter.out").toFile());
        try {
            return new Running(builder.start(), System.nanoTime() + timeout.toNanos());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start JMeter: " + String.join(" ", command), e);
        }
    }

    /** A started run. */
    public final class Running {
        private final Process process;
        private final long deadlineNanos;
        private final Thread shutdownHook;

        private Running(Process process, long deadlineNanos) {
            this.process = process;
            this.deadlineNanos = deadlineNanos;
            // If the caller's JVM is stopped (Ctrl-C on the benchmark), JMeter must not keep loading the machine.
            this.shutdownHook = new Thread(() -> ProcessTrees.kill(process), "jmeter-cleanup-" + process.pid());
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }

        public long pid() {
            return process.pid();
        }

        public boolean isAlive() {
            return process.isAlive();
        }

        public Path jtl() {
            return JMeterRun.this.jtl();
        }

        /** Waits until JMeter exits; past the run's timeout kills JMeter and its children. */
        public Result await() {
            boolean timedOut = false;
            try {
                long left = deadlineNanos - System.nanoTime();
                if (!process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                    timedOut = true;
                    ProcessTrees.kill(process);
                }
            } catch (InterruptedException e) {
                ProcessTrees.kill(process);
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while JMeter ran " + plan, e);
            }
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // The hook runs anyway and finds JMeter gone.
            }
            int exit = process.isAlive() ? -1 : process.exitValue();
            return new Result(exit, timedOut, JMeterRun.this.jtl(), log(), workDir.resolve("jmeter.out"));
        }
    }

    /** How a run ended, and where its files are. */
    public record Result(int exitCode, boolean timedOut, Path jtl, Path log, Path output) {

        /** Exit code, console output and the log's errors, for assertion messages. */
        public String describe() {
            StringBuilder s = new StringBuilder("JMeter exit code " + exitCode + (timedOut ? " (killed: timeout)" : ""));
            s.append("\n--- console\n").append(Folders.readQuietly(output));
            String log = Folders.readQuietly(this.log);
            log.lines().filter(line -> line.contains(" ERROR ") || line.contains(" WARN "))
                    .limit(40).forEach(line -> s.append("\n--- log: ").append(line));
            return s.toString();
        }

        public boolean succeeded() {
            return exitCode == 0 && !timedOut;
        }
    }
}
