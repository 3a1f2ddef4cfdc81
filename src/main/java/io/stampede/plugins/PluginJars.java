/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which jars some plugins add to a JMeter: each plugin's own jar and those of its libraries that JMeter does not
 * already hold. A library JMeter holds in an equal or newer version of the same major is JMeter's to serve; in an
 * older version, or a newer major, the two versions would meet on one class path and whichever loads first would
 * serve both, so the plugin is refused with the reason.
 *
 * @param jars the jars to fetch or take from the cache, in order
 * @param notes one line per library JMeter serves in another version
 * @param conflicts one line per refused library
 */
public record PluginJars(List<Coordinates> jars, List<String> notes, List<String> conflicts) {

    public static PluginJars choose(List<PluginIndex.Plugin> plugins, JMeterClasspath jmeter) throws IOException {
        Set<Coordinates> jars = new LinkedHashSet<>();
        List<String> notes = new ArrayList<>();
        Set<String> noted = new LinkedHashSet<>();
        List<String> conflicts = new ArrayList<>();
        for (PluginIndex.Plugin p : plugins) {
            for (Coordinates c : p.jars()) {
                Optional<JMeterClasspath.Library> own = jmeter.library(c);
                if (own.isEmpty()) {
                    jars.add(c);
                    continue;
                }
                JMeterClasspath.Library lib = own.get();
                String where = jmeter.home().relativize(lib.jar()).toString();
                int order = Versions.compare(lib.version(), c.version());
                if (order == 0) {
                    continue;
                }
                if (order > 0 && Versions.major(lib.version()).equals(Versions.major(c.version()))) {
                    if (noted.add(c.key())) {
                        notes.add("JMeter's own " + where + " serves " + p.id() + " (built with " + c.version() + ")");
                    }
                } else {
                    conflicts.add(p.id() + " needs " + c + " but JMeter has " + lib.version() + " in " + where
                            + (order < 0 ? ": an older version" : ": another major version")
                            + " of a library JMeter itself loads; both on one class path would break one of them."
                            + " Use a JMeter whose " + c.artifact() + " is " + c.version() + " or a newer "
                            + Versions.major(c.version()) + ".x");
                }
            }
        }
        return new PluginJars(List.copyOf(jars), List.copyOf(notes), List.copyOf(conflicts));
    }
}
