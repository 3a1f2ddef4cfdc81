/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.run;

import io.stampede.names.PluginNames;
import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import io.stampede.plan.SamplerProtocols;
import java.nio.file.Path;

/**
 * A .jmx plan checked before JMeter is started, so a wrong path or a broken file fails fast and clearly; parsed
 * once, for the run and for the doctor's estimate of its load.
 */
public record PlanFile(JmxTree tree) {

    public static PlanFile read(Path path) {
        try {
            return new PlanFile(JmxTree.parse(path));
        } catch (PlanException e) {
            throw new RunInputException("PLAN " + e.getMessage());
        }
    }

    /**
     * Refuses Stampede samplers whose protocol or concurrency fields would fail every sample, as read with the run's
     * -J properties (SamplerProtocols).
     */
    void checkSamplers(RunProperties props) {
        try {
            SamplerProtocols.check(tree, props.values());
        } catch (PlanException e) {
            throw new RunInputException(e.getMessage());
        }
    }

    public Path path() {
        return tree.path();
    }

    String text() {
        return tree.text();
    }

    /** True when the plan reads JMeter property {@code name} (e.g. {@code ${__P(host,…)}}). */
    boolean readsProperty(String name) {
        String text = tree.text();
        return text.contains("__P(" + name + ",") || text.contains("__P(" + name + ")")
                || text.contains("__property(" + name);
    }

    /** True when the plan holds a Stampede Virtual User Thread Group, whose users need Java 21+. */
    public boolean hasVirtualUsers() {
        return tree.text().contains(PluginNames.VIRTUAL_USER_THREAD_GROUP_CLASS);
    }

    String name() {
        String n = tree.fileName();
        return n.endsWith(".jmx") ? n.substring(0, n.length() - 4) : n;
    }
}
