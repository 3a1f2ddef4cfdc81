/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injector;

import io.stampede.names.PluginNames;
import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.util.JMeterUtils;

/**
 * Starts the {@link InjectorMonitor} when the test starts, in the JMeter that runs the threads: `stampede run` adds
 * it first under the test plan of whatever plan it runs (stock samplers too), so a non-GUI run, each share and each
 * engine of a distributed run start their monitor before any thread group makes a thread. It replaces a Groovy
 * script JMeter ran from {@code jsr223.init.file}, which cost seconds of CPU per JMeter and ran only after the test
 * had started. The monitor writes where {@value io.stampede.names.PluginNames#INJECTOR_CSV} says; a JMeter without
 * that property (a plan run some other way) starts none.
 *
 * <p>Because JMeter loads that copy, not the user's file, the element also gives JMeter back the user's plan name
 * ({@value PluginNames#INJECTOR_MONITOR_PLAN_NAME}), which {@code __TestPlanName} and file names built from it read
 * once the test has started.
 */
public final class InjectorMonitorAtStart extends AbstractTestElement implements TestStateListener {
    private static final long serialVersionUID = 1L;

    @Override
    public void testStarted() {
        restorePlanName(FileServer.getFileServer());
        InjectorMonitor.startOnce(JMeterUtils.getJMeterProperties());
    }

    void restorePlanName(FileServer files) {
        String name = getPropertyAsString(PluginNames.INJECTOR_MONITOR_PLAN_NAME);
        if (!name.isBlank()) {
            files.setScriptName(name);
        }
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        // the monitor outlives the test: its daemon threads end with the JVM
    }

    @Override
    public void testEnded(String host) {
        // as testEnded()
    }
}
