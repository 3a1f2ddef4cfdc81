/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** What a server's error log said during a run: how often each event that closes or refuses connections appeared. */
public record ServerLogFindings(Path file, Map<ServerLogEvent, Long> counts) {

    public ServerLogFindings {
        Map<ServerLogEvent, Long> c = new EnumMap<>(ServerLogEvent.class);
        counts.forEach((k, v) -> {
            if (v != null && v > 0) {
                c.put(k, v);
            }
        });
        counts = Map.copyOf(c);
    }

    public boolean any() {
        return !counts.isEmpty();
    }

    public long count(ServerLogEvent e) {
        return counts.getOrDefault(e, 0L);
    }

    /** One line per event seen, most serious first: `"<words>" N times: <meaning>`. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (ServerLogEvent e : ServerLogEvent.values()) {
            if (counts.containsKey(e)) {
                out.add("\"" + e.words() + "\" " + counts.get(e) + (counts.get(e) == 1 ? " time: " : " times: ")
                        + e.meaning());
            }
        }
        return out;
    }
}
