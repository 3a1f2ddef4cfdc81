/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import io.stampede.names.PluginNames;
import java.util.List;

/**
 * Column positions of a CSV JTL, read from its header line; -1 for a column the JTL lacks. The last four are the
 * {@code sample_variables} columns Stampede's samplers fill (see {@link StampedeColumns}).
 */
public record JtlHeader(int timeStamp, int elapsed, int label, int responseCode, int responseMessage,
                        int success, int allThreads, int latency, int connect, int bytes, int openConnections,
                        int elapsedUs, int correctedUs, int protocol) {

    public static JtlHeader parse(String headerLine) {
        List<String> names = CsvLine.split(headerLine);
        JtlHeader h = new JtlHeader(names.indexOf("timeStamp"), names.indexOf("elapsed"), names.indexOf("label"),
                names.indexOf("responseCode"), names.indexOf("responseMessage"), names.indexOf("success"),
                names.indexOf("allThreads"), names.indexOf("Latency"), names.indexOf("Connect"),
                names.indexOf("bytes"), names.indexOf(PluginNames.OPEN_CONNECTIONS_VARIABLE),
                names.indexOf(PluginNames.ELAPSED_US_VARIABLE), names.indexOf(PluginNames.CORRECTED_US_VARIABLE),
                names.indexOf(PluginNames.PROTOCOL_VARIABLE));
        if (h.timeStamp < 0 || h.elapsed < 0 || h.success < 0) {
            throw new IllegalArgumentException("not a CSV JTL with a header (need timeStamp, elapsed and success): "
                    + headerLine);
        }
        return h;
    }
}
