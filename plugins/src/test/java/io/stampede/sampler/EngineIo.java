/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Runs a test class with {@code stampede.io_mode=engine}: the engine's event loops do the I/O that the JMeter thread
 * does itself by default, so both paths pass the same tests. Puts back what was there afterwards. For test classes
 * whose own {@code @BeforeAll} loads JMeter properties this runs too early: set the mode in that method instead.
 */
final class EngineIo implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(EngineIo.class);

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        if (JMeterUtils.getJMeterProperties() == null) {
            // A fresh JVM where no test loaded JMeter's properties yet: start from none.
            Path empty = Files.createTempFile("jmeter", ".properties");
            JMeterUtils.loadJMeterProperties(empty.toString());
            Files.delete(empty);
        }
        Properties p = JMeterUtils.getJMeterProperties();
        context.getStore(NS).put("before", String.valueOf(p.getProperty(PluginNames.IO_MODE)));
        p.setProperty(PluginNames.IO_MODE, IoMode.ENGINE.value());
        ThreadConnections.ofCurrentThread().closeAll(); // re-reads the mode
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Properties p = JMeterUtils.getJMeterProperties();
        String before = context.getStore(NS).get("before", String.class);
        if (before == null || before.equals("null")) {
            p.remove(PluginNames.IO_MODE);
        } else {
            p.setProperty(PluginNames.IO_MODE, before);
        }
        ThreadConnections.ofCurrentThread().closeAll();
    }
}
