/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code stampede -V}: Stampede's, the bundled JMeter's and Netty's versions as the build wrote them into
 * {@code versions.properties} (filtered from the poms), and the Java runtime the command runs on.
 */
final class StampedeVersion implements IVersionProvider {

    static final String RESOURCE = "versions.properties";

    @Override
    public String[] getVersion() {
        Properties v = read();
        return new String[] {
            "stampede " + v.getProperty("stampede"),
            "JMeter " + v.getProperty("jmeter") + ", Netty " + v.getProperty("netty"),
            "Java " + Runtime.version() + " (" + System.getProperty("java.home") + ")"
        };
    }

    static Properties read() {
        Properties v = new Properties();
        try (InputStream in = StampedeVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the CLI jar: build it with Maven");
            }
            v.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return v;
    }
}
