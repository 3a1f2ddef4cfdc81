/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.distributed;

import io.stampede.jmeter.JMeterInstallation;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JVM option that keeps a JMeter's plain RMI (registry, engine object, the controller's result listener) on
 * one address: the plugin's {@code io.stampede.rmibind.RmiBindAgent}, built beside the bundled JMeter.
 */
public final class RmiBind {
    static final String JAR = "agent/stampede-rmi-bind.jar";

    private RmiBind() {}

    /** {@code -javaagent:…/stampede-rmi-bind.jar=ADDRESS}. */
    public static String javaAgent(Path stampedeRoot, String address) {
        Path jar = JMeterInstallation.bundledHome(stampedeRoot).resolve(JAR);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the RMI bind agent is missing at " + jar
                    + ": build it with `mvn -B -DskipTests package` (./stampede does that when needed)");
        }
        return "-javaagent:" + jar + "=" + address;
    }
}
