/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Before anything starts: every class, editor class and function a plan (and the plans it includes) names, checked
 * against the class path of the JMeter that will run it. Plugins of the catalogue that the plan needs are fetched
 * into the home's {@link PluginCache} in {@link Mode#AUTO}; whatever is still missing is refused, each reference with
 * its file, line, element name and class, the artifact that provides it and the command that adds it.
 */
public final class Preflight {

    /** What a run does about a plugin the plan needs: fetch it from Maven Central, or only name it. */
    public enum Mode {
        AUTO, OFF;

        /** Parses an option's value. */
        public static Mode parse(String option, String value) {
            for (Mode m : values()) {
                if (m.name().equalsIgnoreCase(value)) {
                    return m;
                }
            }
            throw new IllegalArgumentException(option + " " + value + ": give auto (fetch the plugins a plan needs"
                    + " from Maven Central) or off (only name them)");
        }
    }

    /**
     * @param searchPaths the plugin jars to hand JMeter (search_paths), in addition to those it already had
     * @param lines what was fetched or noticed, one line each, for the console
     */
    public record Outcome(List<Path> searchPaths, List<String> lines) {}

    private static final int SHOWN = 20;

    private final PluginIndex index;
    private final PluginCache cache;
    private final Path home;
    private final List<Path> given;

    private Preflight(PluginIndex index, PluginCache cache, Path home, List<Path> given) {
        this.index = index;
        this.cache = cache;
        this.home = home;
        this.given = List.copyOf(given);
    }

    /** For a JMeter home with the extra jars it is given (search_paths). */
    public static Preflight of(Path home, List<Path> searchPaths) {
        PluginIndex index = PluginIndex.bundled();
        return new Preflight(index, PluginCache.beside(home, index), home, searchPaths);
    }

    static Preflight of(PluginIndex index, PluginCache cache, Path home, List<Path> searchPaths) {
        return new Preflight(index, cache, home, searchPaths);
    }

    /**
     * Checks the plan (none: only the plugins added before, as for a new plan in the GUI).
     *
     * @param fetch false to change nothing (doctor, convert): plugins AUTO would fetch are only named
     * @throws PluginException naming what is missing and how to add it; nothing was started or written
     */
    public Outcome check(Path plan, Mode mode, boolean fetch) throws PluginException, IOException {
        List<String> lines = new ArrayList<>();
        List<Path> jars = new ArrayList<>();
        List<PluginIndex.Plugin> added = cache.added();
        if (!added.isEmpty()) {
            jars.addAll(provide(added, new ArrayList<>()));
        }
        if (plan == null) {
            return new Outcome(jars, lines);
        }
        List<PlanReferences.Reference> refs = PlanReferences.of(plan);
        JMeterClasspath classpath = classpath(jars);
        List<Missing> missing = missing(refs, classpath, lines);
        if (missing.isEmpty()) {
            return new Outcome(jars, lines);
        }
        List<PluginIndex.Plugin> needed = plugins(missing);
        if (mode == Mode.AUTO && !needed.isEmpty() && missing.stream().allMatch(m -> m.plugin().isPresent())) {
            if (!fetch) {
                lines.add("the plan needs " + ids(needed) + ": stampede run fetches "
                        + (needed.size() == 1 ? "it" : "them") + " from Maven Central (--plugins auto)");
                checkConflicts(needed, classpath);
                return new Outcome(jars, lines);
            }
            jars.addAll(provide(needed, lines));
            cache.remember(needed);
            lines.add("plugins: added " + ids(needed) + " from Maven Central for "
                    + plan.getFileName() + " (cached in " + cache.dir() + ")");
            missing = missing(refs, classpath(jars), new ArrayList<>());
            if (missing.isEmpty()) {
                return new Outcome(jars, lines);
            }
        }
        throw new PluginException(refusal(plan, missing, mode));
    }

    private JMeterClasspath classpath(List<Path> jars) throws IOException {
        List<Path> all = new ArrayList<>(given);
        all.addAll(jars);
        return JMeterClasspath.of(home, all);
    }

    private List<Path> provide(List<PluginIndex.Plugin> plugins, List<String> lines)
            throws PluginException, IOException {
        PluginJars choice = checkConflicts(plugins, classpath(List.of()));
        lines.addAll(choice.notes());
        return cache.provide(choice.jars());
    }

    private PluginJars checkConflicts(List<PluginIndex.Plugin> plugins, JMeterClasspath classpath)
            throws IOException {
        PluginJars choice = PluginJars.choose(plugins, classpath);
        if (!choice.conflicts().isEmpty()) {
            throw new PluginException("refused: " + String.join("\n  refused: ", choice.conflicts()));
        }
        return choice;
    }

    /** A reference this JMeter cannot serve, with what would. */
    record Missing(PlanReferences.Reference reference, String className, Optional<Coordinates> jar,
                   Optional<PluginIndex.Plugin> plugin) {}

    private List<Missing> missing(List<PlanReferences.Reference> refs, JMeterClasspath classpath, List<String> lines)
            throws IOException {
        Map<PlanReferences.Reference, String> classes = new LinkedHashMap<>();
        Set<String> unknownFunctions = new LinkedHashSet<>();
        for (PlanReferences.Reference r : refs) {
            if (r.kind() == PlanReferences.Kind.FUNCTION) {
                Optional<PluginIndex.Function> f = index.function(r.name());
                if (f.isEmpty()) {
                    unknownFunctions.add(r.name());
                } else {
                    classes.put(r, f.get().className());
                }
            } else {
                classes.put(r, classpath.resolve(r.name()));
            }
        }
        Set<String> lacking = classpath.lacking(new LinkedHashSet<>(classes.values()));
        List<Missing> out = new ArrayList<>();
        classes.forEach((r, cls) -> {
            if (lacking.contains(cls)) {
                Optional<Coordinates> jar = r.kind() == PlanReferences.Kind.FUNCTION
                        ? index.function(r.name()).map(PluginIndex.Function::coordinates) : index.jarOf(cls);
                out.add(new Missing(r, cls, jar, jar.flatMap(index::pluginWith)));
            }
        });
        for (String f : unknownFunctions) {
            lines.add("note: the plan calls ${" + f + "(...)}, which no artifact of Stampede's catalogue implements;"
                    + " unless a jar on JMeter's class path does, JMeter leaves it as text");
        }
        return out;
    }

    private static List<PluginIndex.Plugin> plugins(List<Missing> missing) {
        Map<String, PluginIndex.Plugin> out = new LinkedHashMap<>();
        missing.forEach(m -> m.plugin().ifPresent(p -> out.putIfAbsent(p.id(), p)));
        return List.copyOf(out.values());
    }

    private static String ids(List<PluginIndex.Plugin> plugins) {
        return String.join(", ", plugins.stream().map(PluginIndex.Plugin::id).toList());
    }

    private String refusal(Path plan, List<Missing> missing, Mode mode) {
        StringBuilder m = new StringBuilder(plan.getFileName() + " uses classes the JMeter at " + home
                + " does not have (nothing was started):\n");
        Path dir = plan.toAbsolutePath().getParent();
        Set<String> seen = new LinkedHashSet<>();
        int shown = 0;
        for (Missing x : missing) {
            PlanReferences.Reference r = x.reference();
            String where = (r.file().equals(plan.toAbsolutePath().normalize()) ? r.file().getFileName()
                    : dir.relativize(r.file())) + ":" + r.line();
            if (!seen.add(where + x.className()) || shown++ >= SHOWN) {
                continue;
            }
            m.append("  ").append(where).append("  \"").append(r.element()).append("\"  ")
                    .append(r.kind() == PlanReferences.Kind.FUNCTION ? r.name() + "() in " : "")
                    .append(x.className())
                    .append(r.kind() == PlanReferences.Kind.GUI ? " (its editor)" : "").append('\n')
                    .append("      ").append(x.jar().map(j -> "provided by " + j
                            + x.plugin().map(p -> " (plugin " + p.id() + ")").orElse(""))
                            .orElse("no artifact in Stampede's catalogue provides it")).append('\n');
        }
        if (shown > SHOWN) {
            m.append("  ... and ").append(shown - SHOWN).append(" more\n");
        }
        List<PluginIndex.Plugin> plugins = plugins(missing);
        if (!plugins.isEmpty()) {
            m.append("  add ").append(plugins.size() == 1 ? "it" : "them").append(": stampede plugins add ")
                    .append(String.join(" ", plugins.stream().map(PluginIndex.Plugin::id).toList()))
                    .append(mode == Mode.OFF ? "   (or run with --plugins auto)" : "").append('\n');
        }
        if (missing.stream().anyMatch(x -> x.plugin().isEmpty())) {
            m.append("  for a class no catalogue artifact provides: put the jar that has it in ")
                    .append(home.resolve("lib/ext")).append(" (its libraries in ").append(home.resolve("lib"))
                    .append("), or check the class name for a typo\n");
        }
        return m.toString().stripTrailing();
    }
}
