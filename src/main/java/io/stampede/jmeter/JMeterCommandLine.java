/*
 * Licensed under the Apache License, Version 2.0.
 */
package io.stampede.jmeter;

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
        p.put("jmeter.save.saveservice.timestamp_format", "ms");
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

    private JMeterCommandLine() {}

    /** A non-GUI run of {@code plan} writing {@code jtl}. */
    public static List<String> run(JMeterInstallation jmeter, List<String> jvmOptions, Path plan, Path jtl, Path log,
                                   Map<String, String> userProperties) {
        List<String> cmd = launcher(jmeter, jvmOptions);
        cmd.addAll(List.of("-n", "-t", plan.toString(), "-l", jtl.toString(), "-j", log.toString()));
        addProperties(cmd, jmeter, userProperties);
        return cmd;
    }

    /** The HTML dashboard from a finished JTL ({@code jmeter -g jtl -o dir}). */
    public static List<String> dashboard(JMeterInstallation jmeter, List<String> jvmOptions, Path jtl, Path log,
                                         Path outputDir, Map<String, String> userProperties) {
        List<String> cmd = launcher(jmeter, jvmOptions);
        cmd.addAll(List.of("-g", jtl.toString(), "-o", outputDir.toString(), "-j", log.toString()));
        addProperties(cmd, jmeter, userProperties);
        return cmd;
    }

    private static List<String> launcher(JMeterInstallation jmeter, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-jar");
        cmd.add(jmeter.launcherJar().toString());
        return cmd;
    }

    private static void addProperties(List<String> cmd, JMeterInstallation jmeter, Map<String, String> user) {
        if (!jmeter.searchPaths().isEmpty()) {
            cmd.add("-Jsearch_paths=" + jmeter.searchPaths().stream().map(Path::toString)
                    .collect(Collectors.joining(";")));
        }
        Map<String, String> props = reportProperties();
        props.putAll(user);
        props.forEach((k, v) -> cmd.add("-J" + k + "=" + v));
    }
}
