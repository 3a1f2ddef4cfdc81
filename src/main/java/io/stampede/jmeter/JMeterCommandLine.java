/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.jmeter;

import io.stampede.cli.CliNames;
import io.stampede.names.PluginNames;
import io.stampede.results.StampedeColumns;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The `java -jar ApacheJMeter.jar -n -t …` command for one non-GUI run, with the JTL set up for the dashboard. */
public final class JMeterCommandLine {

    /**
     * JTL and report settings every run gets: a CSV with the columns the HTML dashboard reads, and percentiles
     * over the whole run rather than JMeter's default window of the last 20,000 samples.
     */
    static Map<String, String> reportProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("jmeter.save.saveservice.output_format", "csv");
        p.put(TIMESTAMP_FORMAT, "ms");
        p.put("jmeter.save.saveservice.print_field_names", "true");
        p.put("jmeter.save.saveservice.connect_time", "true");
        p.put("jmeter.save.saveservice.latency", "true");
        p.put("jmeter.save.saveservice.thread_counts", "true");
        p.put("jmeter.save.saveservice.bytes", "true");
        p.put("jmeter.save.saveservice.sent_bytes", "true");
        p.put("jmeter.save.saveservice.url", "true");
        p.put("jmeter.reportgenerator.statistic_window", "-1");
        // Our own progress line replaces the summariser, which costs throughput at high rates.
        p.put("summariser.name", "");
        return p;
    }

    /**
     * Distributed runs: results come back to the controller through Stampede's sample sender
     * ({@code io.stampede.remote.CompactSampleSender}): a thread of its own per engine, response data stripped, each
     * result in a compact form, and the end of the test reported only once the queue is drained. {@code mode} is
     * read on the controller: the sender is built there and shipped to the engines inside the plan (JMeter's
     * ConvertListeners, 5.6.3).
     *
     * <p>Why not JMeter's own (issue 20): with StrippedBatch the JMeter thread whose sample fills a batch serializes
     * it and waits for the controller, and a Stampede thread holding thousands of connections reads none of their
     * responses meanwhile; JMeter's default serialization of a result writes its save configuration and a
     * ConcurrentHashMap per sample (56 % of an engine's CPU at 5,000 samples/s); StrippedAsynch tells the
     * controller the engine is done before its queue is drained. The batch thresholds stay for a user who asks for
     * {@code -J mode=StrippedBatch}.
     */
    static Map<String, String> remoteSenderProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("mode", PluginNames.COMPACT_SAMPLE_SENDER_CLASS);
        p.put("num_sample_threshold", "1000");
        p.put("time_threshold", "2000");
        return p;
    }

    private static final String TIMESTAMP_FORMAT = "jmeter.save.saveservice.timestamp_format";

    private JMeterCommandLine() {}

    /** A non-GUI run of {@code plan} writing {@code jtl}. */
    public static List<String> run(JMeterInstallation jmeter, JavaRuntime java, List<String> jvmOptions, Path plan,
                                   Path jtl, Path log, Map<String, String> userProperties) {
        List<String> cmd = launcher(java, jmeter, jvmOptions);
        cmd.addAll(List.of("-n", "-t", plan.toString(), "-l", jtl.toString(), "-j", log.toString()));
        addProperties(cmd, jmeter, userProperties);
        return cmd;
    }

    /**
     * A distributed run: the controller sends {@code plan} to the engines in {@code engines} (JMeter's {@code -R}
     * list) and writes their samples to {@code jtl}. The user's properties go to the engines with {@code -G}, since
     * the plans' {@code __P} functions are evaluated there, and to the controller too. Plain RMI unless the user
     * gives an RMI keystore ({@code server.rmi.ssl.keystore.file}).
     */
    public static List<String> runRemote(JMeterInstallation jmeter, JavaRuntime java, List<String> jvmOptions,
                                         Path plan, Path jtl, Path log, Map<String, String> userProperties,
                                         String engines, boolean exitEngines) {
        return runRemote(jmeter, java, jvmOptions, plan, jtl, log, userProperties, engines, exitEngines, null);
    }

    /**
     * As {@link #runRemote(JMeterInstallation, JavaRuntime, List, Path, Path, Path, Map, String, boolean)}, with the
     * controller's own {@code propertyFile} (JMeter's {@code -q}, none when null) for what must not show on the
     * command line, such as the RMI keystore's password.
     */
    public static List<String> runRemote(JMeterInstallation jmeter, JavaRuntime java, List<String> jvmOptions,
                                         Path plan, Path jtl, Path log, Map<String, String> userProperties,
                                         String engines, boolean exitEngines, Path propertyFile) {
        List<String> cmd = launcher(java, jmeter, jvmOptions);
        cmd.addAll(List.of("-n", "-t", plan.toString(), "-l", jtl.toString(), "-j", log.toString(), "-R", engines));
        if (propertyFile != null) {
            cmd.addAll(List.of("-q", propertyFile.toString()));
        }
        if (exitEngines) {
            cmd.add("-X");
        }
        Map<String, String> controller = remoteSenderProperties();
        if (!userProperties.containsKey(CliNames.RMI_KEYSTORE_FILE)) {
            controller.put(CliNames.RMI_SSL_DISABLE, "true");
        }
        controller.putAll(userProperties);
        addProperties(cmd, jmeter, controller);
        // RMI settings are the controller's own; engines read theirs at start, and keystore passwords stay here.
        userProperties.forEach((k, v) -> {
            if (!k.startsWith("server.rmi.") && !k.startsWith("client.rmi.")) {
                cmd.add("-G" + k + "=" + v);
            }
        });
        return cmd;
    }

    /**
     * A jmeter-server engine ({@code jmeter -s}) that runs the plans controllers send it; {@code propertyFile}
     * (JMeter's {@code -q}, none when null) carries what must not show on the command line, such as passwords.
     */
    public static List<String> server(JMeterInstallation jmeter, JavaRuntime java, List<String> jvmOptions, Path log,
                                      Map<String, String> properties, Path propertyFile) {
        List<String> cmd = launcher(java, jmeter, jvmOptions);
        cmd.addAll(List.of("-s", "-j", log.toString()));
        addSearchPaths(cmd, jmeter);
        if (propertyFile != null) {
            cmd.addAll(List.of("-q", propertyFile.toString()));
        }
        properties.forEach((k, v) -> cmd.add("-J" + k + "=" + v));
        return cmd;
    }

    /**
     * JMeter's GUI with {@code plan} open (a new plan when null). Only our jars' search path and the user's
     * properties: the JTL settings of {@link #run} are for Stampede's own runs, not for listeners a user adds.
     */
    public static List<String> gui(JMeterInstallation jmeter, List<String> jvmOptions, Path plan,
                                   Map<String, String> userProperties) {
        List<String> cmd = launcher(JavaRuntime.current(), jmeter, jvmOptions);
        if (plan != null) {
            cmd.addAll(List.of("-t", plan.toString()));
        }
        addSearchPaths(cmd, jmeter);
        userProperties.forEach((k, v) -> cmd.add("-J" + k + "=" + v));
        return cmd;
    }

    /** The HTML dashboard from a finished JTL ({@code jmeter -g jtl -o dir}). */
    public static List<String> dashboard(JMeterInstallation jmeter, JavaRuntime java, List<String> jvmOptions,
                                         Path jtl, Path log, Path outputDir, Map<String, String> userProperties) {
        List<String> cmd = launcher(java, jmeter, jvmOptions);
        cmd.addAll(List.of("-g", jtl.toString(), "-o", outputDir.toString(), "-j", log.toString()));
        addProperties(cmd, jmeter, userProperties);
        // JMeter 5.6.3's dashboard prints Start/End Time with SimpleDateFormat(timestamp_format): an explicit "ms"
        // shows minutes and seconds ("2658"). Unset is JMeter's default, which reads the same ms timestamps.
        if (!userProperties.containsKey(TIMESTAMP_FORMAT)) {
            cmd.remove("-J" + TIMESTAMP_FORMAT + "=ms");
        }
        return cmd;
    }

    private static List<String> launcher(JavaRuntime java, JMeterInstallation jmeter, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.executable().toString());
        cmd.addAll(jvmOptions);
        cmd.add("-jar");
        cmd.add(jmeter.launcherJar().toString());
        return cmd;
    }

    private static void addSearchPaths(List<String> cmd, JMeterInstallation jmeter) {
        if (!jmeter.searchPaths().isEmpty()) {
            cmd.add("-Jsearch_paths=" + jmeter.searchPaths().stream().map(Path::toString)
                    .collect(Collectors.joining(";")));
        }
    }

    private static void addProperties(List<String> cmd, JMeterInstallation jmeter, Map<String, String> user) {
        addSearchPaths(cmd, jmeter);
        Map<String, String> props = reportProperties();
        props.putAll(user);
        // Stampede's samplers report open connections and µs latencies through these variables (JTL columns).
        props.put(CliNames.SAMPLE_VARIABLES, StampedeColumns.sampleVariables(user.get(CliNames.SAMPLE_VARIABLES)));
        props.forEach((k, v) -> cmd.add("-J" + k + "=" + v));
    }
}
