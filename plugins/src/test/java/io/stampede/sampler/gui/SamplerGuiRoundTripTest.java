/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler.gui;

import io.stampede.names.PluginNames;
import io.stampede.sampler.HttpRawSampler;
import io.stampede.sampler.HttpSampler;
import io.stampede.sampler.StampedeSampler;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.BooleanProperty;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the GUI shows and saves must reopen identically, with the .jmx names other parts of Stampede rely on. */
class SamplerGuiRoundTripTest {
    private static final List<String> COMMON = List.of(PluginNames.HOST, PluginNames.PORT,
            PluginNames.CONNECT_TIMEOUT, PluginNames.RESPONSE_TIMEOUT, PluginNames.RESPONSE_BYTES_KEPT,
            PluginNames.CONNECTIONS_PER_THREAD, PluginNames.PACING_MS, PluginNames.TARGET_RATE,
            PluginNames.SOURCE_ADDRESSES, PluginNames.PIPELINE_DEPTH, PluginNames.TLS_SNI,
            PluginNames.TLS_TRUST_ALL, PluginNames.PROTOCOL, PluginNames.H2_STREAMS,
            PluginNames.H2_MAX_REQUESTS, PluginNames.H2_PING_MS);

    private static void setCommon(StampedeSampler s) {
        s.setName("my sampler");
        s.setHost("${__P(host,127.0.0.1)}");
        s.setPort("${port}");
        s.setConnectTimeout("1234");
        s.setResponseTimeout("4321");
        s.setResponseBytesKept("99");
        s.setKeepAlive(false);
        s.setProperty(PluginNames.CONNECTIONS_PER_THREAD, "${__P(conns,50)}");
        s.setProperty(PluginNames.PACING_MS, "10000");
        s.setProperty(PluginNames.TARGET_RATE, "2.5");
        s.setProperty(PluginNames.SOURCE_ADDRESSES, "10.0.0.1-20, 10.0.1.0/28");
        s.setProperty(PluginNames.PIPELINE_DEPTH, "8");
        s.setProperty(PluginNames.TLS_SNI, "www.example.test");
        s.setProperty(PluginNames.PROTOCOL, "${__P(protocol,h2c)}");
        s.setProperty(PluginNames.H2_STREAMS, "20");
        s.setProperty(PluginNames.H2_MAX_REQUESTS, "1000");
        s.setProperty(PluginNames.H2_PING_MS, "${__P(ping_ms,15000)}");
        s.setProperty(new org.apache.jmeter.testelement.property.BooleanProperty(PluginNames.TLS_TRUST_ALL,
                true));
    }

    private static void assertSame(TestElement in, TestElement out, List<String> names) {
        for (String n : names) {
            assertEquals(in.getPropertyAsString(n), out.getPropertyAsString(n), n);
        }
        assertEquals(in.getName(), out.getName());
        JMeterProperty keepAlive = out.getProperty(PluginNames.KEEP_ALIVE);
        assertInstanceOf(BooleanProperty.class, keepAlive, "keep_alive must be saved as a boolProp");
        assertEquals("false", keepAlive.getStringValue());
    }

    @Test
    void rawSamplerRoundTripsEveryProperty() {
        HttpRawSampler in = new HttpRawSampler();
        setCommon(in);
        in.setRequestText("POST /a HTTP/1.1\nHost: ${host}\nContent-Length: 2\n\nhi");
        in.setCrlf(false);
        in.setProperty(new BooleanProperty(PluginNames.RAW_TLS, true));
        HttpRawSamplerGui gui = new HttpRawSamplerGui();
        gui.configure(in);
        TestElement out = gui.createTestElement();
        assertSame(in, out, COMMON);
        assertEquals(in.getRequestText(), out.getPropertyAsString(PluginNames.RAW_REQUEST));
        assertInstanceOf(BooleanProperty.class, out.getProperty(PluginNames.RAW_CRLF));
        assertEquals("false", out.getPropertyAsString(PluginNames.RAW_CRLF));
        assertInstanceOf(BooleanProperty.class, out.getProperty(PluginNames.RAW_TLS));
        assertEquals("true", out.getPropertyAsString(PluginNames.RAW_TLS));
        assertEquals(HttpRawSampler.class.getName(), out.getPropertyAsString(TestElement.TEST_CLASS));
        assertEquals(HttpRawSamplerGui.class.getName(), out.getPropertyAsString(TestElement.GUI_CLASS));
        assertEquals("Stampede HTTP RAW Request", gui.getStaticLabel());
        assertTrue(gui.getMenuCategories().contains(MenuFactory.SAMPLERS));
    }

    @Test
    void httpSamplerRoundTripsEveryProperty() {
        HttpSampler in = new HttpSampler();
        setCommon(in);
        in.setMethod("PROPFIND");
        in.setPath("/x?y=${id}");
        in.setHeaders("A: 1\nB: 2");
        in.setBody("{}");
        in.setScheme("https");
        HttpSamplerGui gui = new HttpSamplerGui();
        gui.configure(in);
        TestElement out = gui.createTestElement();
        assertSame(in, out, COMMON);
        assertSame(in, out, List.of(PluginNames.HTTP_METHOD, PluginNames.HTTP_PATH, PluginNames.HTTP_HEADERS, PluginNames.HTTP_BODY,
                PluginNames.HTTP_SCHEME));
        assertEquals(HttpSampler.class.getName(), out.getPropertyAsString(TestElement.TEST_CLASS));
        assertEquals(HttpSamplerGui.class.getName(), out.getPropertyAsString(TestElement.GUI_CLASS));
        assertEquals("Stampede HTTP Request", gui.getStaticLabel());
    }
}
