/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.bench;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Benchmark settings: seconds per tool, the warm-up excluded from the figures, connections (= JMeter threads), and
 * which tools to run.
 */
record BenchOptions(int durationSeconds, int warmupSeconds, int connections, Set<Tool> tools) {

    enum Tool { STOCK, RAW, RAW_MULTI, HTTP, WRK }

    static final String USAGE = "usage: EngineBenchmark [--duration SECONDS (60)] [--warmup SECONDS (15)]"
            + " [--connections N (200)] [--tools stock,raw,raw_multi,http,wrk]";

    BenchOptions {
        if (warmupSeconds < 0 || durationSeconds <= warmupSeconds) {
            throw new IllegalArgumentException("--duration (" + durationSeconds + ") must exceed --warmup ("
                    + warmupSeconds + "): the figures come from the seconds after the warm-up");
        }
        if (connections < 1 || connections > 10_000) {
            throw new IllegalArgumentException("--connections must be 1..10000, got " + connections);
        }
        if (tools.isEmpty()) {
            throw new IllegalArgumentException("--tools names no tool; use some of stock,raw,raw_multi,http,wrk");
        }
    }

    int measuredSeconds() {
        return durationSeconds - warmupSeconds;
    }

    static BenchOptions parse(String[] args) {
        int duration = 60;
        int warmup = 15;
        int connections = 200;
        Set<Tool> tools = new LinkedHashSet<>(List.of(Tool.values()));
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value; " + USAGE);
            }
            String value = args[++i];
            switch (option) {
                case "--duration" -> duration = number(option, value);
                case "--warmup" -> warmup = number(option, value);
                case "--connections" -> connections = number(option, value);
                case "--tools" -> tools = tools(value);
                default -> throw new IllegalArgumentException("unknown option " + option + "; " + USAGE);
            }
        }
        return new BenchOptions(duration, warmup, connections, tools);
    }

    private static int number(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a whole number, got '" + value + "'");
        }
    }

    private static Set<Tool> tools(String list) {
        Set<Tool> tools = new LinkedHashSet<>();
        for (String name : list.split(",")) {
            try {
                tools.add(Tool.valueOf(name.trim().toUpperCase(java.util.Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--tools: unknown tool '" + name + "'; use stock,raw,raw_multi,http,wrk");
            }
        }
        return tools;
    }
}
