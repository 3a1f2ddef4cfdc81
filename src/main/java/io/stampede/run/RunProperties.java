/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.cli.CliNames;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JMeter properties a run passes with -J, checked first: the names every Stampede plan reads
 * (host, port, threads, duration, rampup) must hold values JMeter can use, or the run would quietly do nothing.
 */
public record RunProperties(Map<String, String> values) {

    public RunProperties {
        values = Map.copyOf(values);
    }

    public static RunProperties of(Map<String, String> given) {
        Map<String, String> v = new LinkedHashMap<>();
        given.forEach((name, value) -> {
            if (name == null || name.isBlank()) {
                throw new RunInputException("-J " + name + "=" + value + ": a property needs a name, e.g. -J threads=50");
            }
            v.put(name.trim(), value == null ? "" : value.trim());
        });
        requireWhole(v, CliNames.THREADS, 1);
        requireWhole(v, CliNames.DURATION, 1);
        requireWhole(v, CliNames.RAMPUP, 0);
        if (v.containsKey(CliNames.PORT)) {
            int port = requireWhole(v, CliNames.PORT, 1);
            if (port > 65535) {
                throw new RunInputException("-J port=" + port + " is not a TCP port: use 1 to 65535");
            }
        }
        if (v.containsKey(CliNames.HOST) && v.get(CliNames.HOST).isEmpty()) {
            throw new RunInputException("-J host= is empty: give a host name or address, e.g. -J host=10.0.0.5");
        }
        return new RunProperties(v);
    }

    private static int requireWhole(Map<String, String> v, String name, int min) {
        String s = v.get(name);
        if (s == null) {
            return min;
        }
        try {
            int n = Integer.parseInt(s);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new RunInputException("-J " + name + "=" + s + " is not valid: " + name + " must be a whole number"
                + (min > 0 ? " of at least " + min : " of 0 or more") + ", e.g. -J " + name + "=" + Math.max(min, 10)
                + (CliNames.THREADS.equals(name) ? "" : " (seconds)"));
    }

    String get(String name) {
        return values.get(name);
    }

    RunProperties with(String name, String value) {
        Map<String, String> v = new LinkedHashMap<>(values);
        v.put(name, value);
        return new RunProperties(v);
    }
}
