/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.remote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.jmeter.util.JMeterUtils;

/** JMeter's classes read their settings from JMeter's properties, which a unit test must load itself. */
public final class JMeterProperties {
    private JMeterProperties() {
    }

    public static void loadIfMissing() throws IOException {
        if (JMeterUtils.getJMeterProperties() != null) {
            return;
        }
        Path empty = Files.createTempFile("jmeter", ".properties");
        try {
            JMeterUtils.loadJMeterProperties(empty.toString());
        } finally {
            Files.delete(empty);
        }
    }
}
