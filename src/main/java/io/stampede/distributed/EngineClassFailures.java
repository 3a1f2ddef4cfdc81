/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.plugins.Coordinates;
import io.stampede.plugins.PluginIndex;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Engines that refused the plan because their JMeter lacks one of its classes. The controller sends the plan as
 * Java objects (rconfigure); an engine without a class fails to read it, and JMeter's controller prints each failure
 * without the engine's address, in the order it starts the engines, then lists the engines that did not start in
 * that same order. This pairs the two and names, through the plugin index, what provides each class.
 */
public final class EngineClassFailures {

    /** One engine and the first class of the plan it could not load. */
    public record Failure(String engine, String className) {}

    private static final String FAILED = "Error in rconfigure() method";
    private static final Pattern MISSING = Pattern.compile("ClassNotFoundException: ([\\w.$]+)");
    private static final String NOT_STARTED = "The following remote engines have not started:[";

    private EngineClassFailures() {}

    /**
     * The engines that lacked a class, from the controller's console output; none when no engine failed that way.
     * When JMeter's two lists do not pair up (an engine failed for another reason too), the engine is named as one of
     * those that did not start.
     */
    public static List<Failure> read(List<String> console) {
        List<String> classes = new ArrayList<>();
        List<String> notStarted = List.of();
        boolean inFailure = false;
        for (String line : console) {
            if (line.startsWith(FAILED)) {
                classes.add(null);
                inFailure = true;
            } else if (line.startsWith(NOT_STARTED)) {
                String list = line.substring(NOT_STARTED.length(), line.lastIndexOf(']') < 0 ? line.length()
                        : line.lastIndexOf(']'));
                notStarted = List.of(list.split(",\\s*"));
                inFailure = false;
            } else if (!line.startsWith("\t") && !line.startsWith(" ")) {
                inFailure = false;
            }
            Matcher m = MISSING.matcher(line);
            if (inFailure && m.find() && classes.get(classes.size() - 1) == null) {
                classes.set(classes.size() - 1, m.group(1));
            }
        }
        boolean paired = classes.size() == notStarted.size();
        List<Failure> out = new ArrayList<>();
        for (int i = 0; i < classes.size(); i++) {
            if (classes.get(i) != null) {
                out.add(new Failure(paired ? notStarted.get(i) : "one of " + String.join(", ", notStarted),
                        classes.get(i)));
            }
        }
        return out;
    }

    /** What each engine lacks, what provides it, and the commands that give the engines the plan's plugins. */
    public static String message(List<Failure> failures, PluginIndex index, String planFile) {
        StringBuilder m = new StringBuilder("stampede run: " + (failures.size() == 1 ? "an engine" : failures.size()
                + " engines") + " refused the plan: their JMeter lacks classes it uses (nothing ran on them):\n");
        Set<String> ids = new LinkedHashSet<>();
        boolean unknown = false;
        for (Failure f : failures) {
            Optional<Coordinates> jar = index.jarOf(f.className());
            Optional<PluginIndex.Plugin> plugin = jar.flatMap(index::pluginWith);
            plugin.ifPresent(p -> ids.add(p.id()));
            unknown |= plugin.isEmpty();
            m.append("  ").append(f.engine()).append("  ").append(f.className()).append("  ")
                    .append(jar.map(j -> "provided by " + j + plugin.map(p -> " (plugin " + p.id() + ")").orElse(""))
                            .orElse("no artifact in Stampede's catalogue provides it"))
                    .append('\n');
        }
        m.append("  an engine names only the first class it lacks; on each engine listed, either restart it with ")
                .append("`stampede server --plan ").append(planFile).append("` (fetches every plugin the plan needs)");
        if (!ids.isEmpty()) {
            m.append(",\n  or run `stampede plugins add ").append(String.join(" ", ids))
                    .append("` (and any other plugin the plan needs) there and restart `stampede server`");
        }
        m.append('\n');
        if (unknown) {
            m.append("  for a class no catalogue artifact provides: put the jar that has it in the engine's JMeter"
                    + " lib/ext and restart it\n");
        }
        return m.toString();
    }
}
