/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stampede.names.PluginNames;
import java.util.Properties;
import org.apache.jmeter.services.FileServer;
import org.junit.jupiter.api.Test;

/**
 * When the element at a test's start starts no monitor (the start itself is StampedeRunIT's), and the plan name it
 * gives back.
 */
class InjectorMonitorStartOnceTest {

    @Test
    void aJMeterWithoutTheSeriesPropertyStartsNone() {
        Properties props = new Properties();
        assertFalse(InjectorMonitor.startOnce(props));
        props.setProperty(PluginNames.INJECTOR_CSV, " ");
        assertFalse(InjectorMonitor.startOnce(props));
        assertNull(props.getProperty(PluginNames.INJECTOR_MONITOR_RUNNING), "nothing marked as running");
    }

    @Test
    void aSecondTestOfTheSameJMeterKeepsTheMonitorThatRuns() {
        Properties props = new Properties();
        props.setProperty(PluginNames.INJECTOR_CSV, "/results/2/injector.csv");
        props.setProperty(PluginNames.INJECTOR_MONITOR_RUNNING, "/results/1/injector.csv");
        assertFalse(InjectorMonitor.startOnce(props));
        assertEquals("/results/1/injector.csv", props.getProperty(PluginNames.INJECTOR_MONITOR_RUNNING));
    }

    @Test
    void theUsersPlanNameIsWhatTestPlanNameReadsOnceTheTestStarts() {
        FileServer files = FileServer.getFileServer();
        String before = files.getScriptName();
        try {
            files.setScriptName(".checkout.run.4242.jmx");
            InjectorMonitorAtStart element = new InjectorMonitorAtStart();
            element.restorePlanName(files);
            assertEquals(".checkout.run.4242.jmx", files.getScriptName(), "no name on the element: JMeter's stays");
            element.setProperty(PluginNames.INJECTOR_MONITOR_PLAN_NAME, "checkout.jmx");
            element.restorePlanName(files);
            assertEquals("checkout.jmx", files.getScriptName());
        } finally {
            files.setScriptName(before);
        }
    }
}
