/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import org.apache.jmeter.util.JMeterUtils;

import java.util.Locale;
import java.util.Properties;

/**
 * Whose keep-alive connections a one-connection sample uses, a JMeter property for the whole test:
 * {@value PluginNames#CONNECTION_SHARING}{@code =thread} (default) each JMeter thread keeps its own, as a browser user does;
 * {@code engine}: all threads of the JVM borrow from one pool per target of at most {@value PluginNames#POOL_SIZE}
 * connections, for many mostly idle users (100,000 users cannot each hold one of 20,000 file descriptors).
 * Cookies, variables and extracted values stay per user either way; only the socket is shared.
 */
public record ConnectionSharing(boolean engine, int poolSize) {

    static final ConnectionSharing PER_THREAD = new ConnectionSharing(false, PluginNames.DEFAULT_POOL_SIZE);

    /** The sharing set with -J, per thread when unset. */
    public static ConnectionSharing fromJMeterProperties() {
        Properties p = JMeterUtils.getJMeterProperties();
        return p == null ? PER_THREAD : parse(p.getProperty(PluginNames.CONNECTION_SHARING), p.getProperty(PluginNames.POOL_SIZE));
    }

    /** @throws IllegalArgumentException naming the property and the fix */
    static ConnectionSharing parse(String mode, String size) {
        String m = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT);
        boolean engine;
        if (m.isEmpty() || m.equals("thread")) {
            engine = false;
        } else if (m.equals("engine")) {
            engine = true;
        } else {
            throw new IllegalArgumentException(PluginNames.CONNECTION_SHARING + ": '" + mode.trim() + "' is not a sharing mode; set thread"
                    + " (each JMeter thread keeps its own connections, the default) or engine (all threads share a "
                    + "pool of " + PluginNames.POOL_SIZE + " connections per target)");
        }
        String s = size == null ? "" : size.trim();
        int n = PluginNames.DEFAULT_POOL_SIZE;
        if (!s.isEmpty()) {
            try {
                n = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1) {
                throw new IllegalArgumentException(PluginNames.POOL_SIZE + ": '" + s + "' is not a pool size; give the "
                        + "most connections per target the shared pool may open, a whole number of 1 or more "
                        + "(default " + PluginNames.DEFAULT_POOL_SIZE + ")");
            }
        }
        return new ConnectionSharing(engine, n);
    }
}
