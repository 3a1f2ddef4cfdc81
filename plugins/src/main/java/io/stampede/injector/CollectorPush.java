/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.injector;

import io.stampede.names.PluginNames;
import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On an engine that `stampede server` started: sends each of the monitor's rows to the controller of the test
 * running now, so that `stampede run --remote` gets every engine's series in its run folder. The controller names
 * its collector in the JMeter property {@value PluginNames#INJECTOR_COLLECTOR}, which its -G options set on every engine at the start of
 * each test; the property stays after the test, so rows go only while a test runs, and a collector that refused
 * once is not asked again until the property names another one.
 */
public final class CollectorPush {
    private static final Logger LOG = LoggerFactory.getLogger(CollectorPush.class);
    private static final int TIMEOUT_MS = 1000;

    private final Supplier<String> collector;
    private final Supplier<Boolean> testRunning;
    private final String engine;
    private String refused;

    CollectorPush(Supplier<String> collector, Supplier<Boolean> testRunning, String engine) {
        this.collector = collector;
        this.testRunning = testRunning;
        this.engine = engine;
    }

    /** The engine's own: JMeter's properties and test state; named by stampede.engine_name. */
    static CollectorPush ofJMeter() {
        return new CollectorPush(() -> org.apache.jmeter.util.JMeterUtils.getProperty(PluginNames.INJECTOR_COLLECTOR),
                () -> org.apache.jmeter.threads.JMeterContextService.getTestStartTime() > 0,
                org.apache.jmeter.util.JMeterUtils.getPropDefault(PluginNames.ENGINE_NAME, ""));
    }

    /**
     * One row outside the monitor's series, such as the sample sender's counts at the end of a test, to the
     * collector of the test that was running; true when it was taken.
     */
    public static boolean sendOnce(String header, String row) {
        return new CollectorPush(() -> org.apache.jmeter.util.JMeterUtils.getProperty(PluginNames.INJECTOR_COLLECTOR), () -> true,
                org.apache.jmeter.util.JMeterUtils.getPropDefault(PluginNames.ENGINE_NAME, "")).send(header, row);
    }

    /** Sends one CSV row (header and row, so the collector needs no other knowledge); true when it was taken. */
    boolean send(String header, String row) {
        String url = collector.get();
        if (engine.isBlank() || url == null || url.isBlank() || url.equals(refused) || !testRunning.get()) {
            return false;
        }
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setConnectTimeout(TIMEOUT_MS);
            c.setReadTimeout(TIMEOUT_MS);
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.setRequestProperty(PluginNames.ENGINE_HTTP_HEADER, engine);
            c.setRequestProperty("Content-Type", "text/csv");
            try (OutputStream o = c.getOutputStream()) {
                o.write((header + "\n" + row + "\n").getBytes(StandardCharsets.US_ASCII));
            }
            int status = c.getResponseCode();
            c.getInputStream().close();
            return status == 204 || status == 200;
        } catch (IOException | IllegalArgumentException e) {
            refused = url;
            LOG.warn("Stampede injector monitor: the controller's collector {} did not take a row ({}); not asking"
                    + " it again", url, e.toString());
            return false;
        }
    }
}
