/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The -J properties that make JMeter write a CSV JTL with a header and every column the HTML dashboard needs, plus
 * Connect, sentBytes and the URL, whatever the home's jmeter.properties says.
 */
public final class JtlFormat {

    private JtlFormat() {
    }

    public static Map<String, String> csvWithAllColumns() {
        Map<String, String> p = new LinkedHashMap<>();
        String prefix = "jmeter.save.saveservice.";
        p.put(prefix + "output_format", "csv");
        p.put(prefix + "print_field_names", "true");
        p.put(prefix + "timestamp_format", "ms");
        p.put(prefix + "default_delimiter", ",");
        for (String column : new String[] {"time", "label", "response_code", "response_message", "thread_name",
                "data_type", "successful", "assertion_results_failure_message", "bytes", "sent_bytes",
                "thread_counts", "url", "latency", "encoding", "sample_count", "hostname", "idle_time",
                "connect_time"}) {
            p.put(prefix + column, "true");
        }
        return p;
    }

    /**
     * The shipped jmeter.properties columns, i.e. the JTL a user normally writes (benchmarks use this so JMeter
     * pays the usual cost per line); only the header and millisecond timestamps are pinned for parsing.
     */
    public static Map<String, String> jmeterDefaults() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("jmeter.save.saveservice.output_format", "csv");
        p.put("jmeter.save.saveservice.print_field_names", "true");
        p.put("jmeter.save.saveservice.timestamp_format", "ms");
        return p;
    }
}
