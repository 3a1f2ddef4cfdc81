/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What JMeter printed or logged, shown when a run fails so the cause is on screen. */
final class JMeterOutput {

    private JMeterOutput() {}

    static List<String> tail(Path file, int lines) {
        List<String> all = read(file);
        return all.subList(Math.max(0, all.size() - lines), all.size());
    }

    static List<String> errors(Path log, int max) {
        return read(log).stream().filter(l -> l.contains(" ERROR ")).limit(max).toList();
    }

    /** Whether the JVM stopped for want of memory (it runs with -XX:+ExitOnOutOfMemoryError, so it says so). */
    static boolean ranOutOfMemory(Path console, Path log) {
        return read(console).stream().anyMatch(l -> l.contains("OutOfMemoryError"))
                || read(log).stream().anyMatch(l -> l.contains("OutOfMemoryError"));
    }

    /** Twice a heap size written as for -Xmx (2g -> 4g, 1536m -> 3072m). */
    static String doubled(String heap) {
        char unit = Character.isDigit(heap.charAt(heap.length() - 1)) ? 0 : heap.charAt(heap.length() - 1);
        String digits = unit == 0 ? heap : heap.substring(0, heap.length() - 1);
        return (Long.parseLong(digits) * 2) + (unit == 0 ? "" : String.valueOf(unit));
    }

    /** Every line of the file; none when it is missing. */
    static List<String> read(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            return List.of("(cannot read " + file + ": " + e.getMessage() + ")");
        }
    }
}
