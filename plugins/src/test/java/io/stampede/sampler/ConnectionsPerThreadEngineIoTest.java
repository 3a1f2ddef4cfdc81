/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Properties;

/** Every connections-per-thread case again with the engine's shared event loops doing the I/O (stampede.io_mode). */
class ConnectionsPerThreadEngineIoTest extends ConnectionsPerThreadTest {
    private static String before;

    @BeforeAll
    static void engineIo() {
        before = JMeterUtils.getJMeterProperties().getProperty(PluginNames.IO_MODE);
        JMeterUtils.getJMeterProperties().setProperty(PluginNames.IO_MODE, IoMode.ENGINE.value());
    }

    /** Puts back what was there, so no later test class runs with a property it did not set. */
    @AfterAll
    static void restoreIoMode() {
        Properties p = JMeterUtils.getJMeterProperties();
        if (before == null) {
            p.remove(PluginNames.IO_MODE);
        } else {
            p.setProperty(PluginNames.IO_MODE, before);
        }
    }
}
