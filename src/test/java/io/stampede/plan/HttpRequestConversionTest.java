/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class HttpRequestConversionTest {

    static final Path SHOP = Path.of(System.getProperty("user.dir")).resolve("../plans/recorded-shop.jmx").normalize();

    @Test
    void theShopPlanGoesToStampedeAndBackToTheSameBytes(@TempDir Path dir) throws Exception {
        JmxTree stock = JmxTree.parse(SHOP);
        assertEquals(3, HttpRequestConversion.count(stock, HttpRequestEngine.STOCK));
        assertEquals(0, HttpRequestConversion.count(stock, HttpRequestEngine.STAMPEDE));

        HttpRequestConversion.Result there = HttpRequestConversion.convert(stock, HttpRequestEngine.STAMPEDE);
        assertEquals(3, there.converted());
        assertFalse(there.text().contains("HTTPSamplerProxy"), "no stock HTTP Request left");
        assertFalse(there.text().contains("HttpTestSampleGui"), "every one opens in Stampede's panel");
        JmxTree converted = JmxTree.parse(Files.writeString(dir.resolve("shop-stampede.jmx"), there.text()));
        assertEquals(3, HttpRequestConversion.count(converted, HttpRequestEngine.STAMPEDE));
        for (Element e : elements(converted, "io.stampede.httprequest.EngineHttpRequest")) {
            assertEquals("io.stampede.httprequest.EngineHttpRequest", e.getAttribute("testclass"));
            assertEquals("io.stampede.httprequest.gui.EngineHttpRequestGui", e.getAttribute("guiclass"));
        }
        assertSameProperties(stock, "HTTPSamplerProxy", converted, "io.stampede.httprequest.EngineHttpRequest");

        HttpRequestConversion.Result back = HttpRequestConversion.convert(converted, HttpRequestEngine.STOCK);
        assertEquals(3, back.converted());
        assertEquals(stock.text(), back.text(), "there and back gives the original file, byte for byte");
    }

    @Test
    void fullClassNamesSelfClosingDisabledAndAngleBracketsInNamesAreConverted(@TempDir Path dir) throws Exception {
        Path plan = Files.writeString(dir.resolve("odd.jmx"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <jmeterTestPlan version="1.2">
                  <hashTree>
                    <org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy
                        guiclass="org.apache.jmeter.protocol.http.control.gui.HttpTestSampleGui"
                        testclass="org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy" testname="a > b" enabled="false">
                      <stringProp name="HTTPSampler.path">/x</stringProp>
                    </org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy>
                    <hashTree/>
                    <HTTPSamplerProxy testname='single' guiclass='HttpTestSampleGui' testclass='HTTPSamplerProxy'/>
                    <hashTree/>
                    <HTTPSamplerProxyLookalike guiclass="X" testclass="HTTPSamplerProxyLookalike"/>
                  </hashTree>
                </jmeterTestPlan>
                """);
        HttpRequestConversion.Result r = HttpRequestConversion.convert(JmxTree.parse(plan), HttpRequestEngine.STAMPEDE);
        assertEquals(2, r.converted());
        assertTrue(r.text().replaceAll("\\s+", " ").contains("<io.stampede.httprequest.EngineHttpRequest guiclass=\"io.stampede.httprequest.gui"
                + ".EngineHttpRequestGui\" testclass=\"io.stampede.httprequest.EngineHttpRequest\" testname=\"a > b\""
                + " enabled=\"false\">"), r.text());
        assertTrue(r.text().contains("</io.stampede.httprequest.EngineHttpRequest>"), r.text());
        assertTrue(r.text().contains("<io.stampede.httprequest.EngineHttpRequest testname='single' guiclass='io."
                + "stampede.httprequest.gui.EngineHttpRequestGui' testclass='io.stampede.httprequest.EngineHttpRequest'/>"),
                r.text());
        assertTrue(r.text().contains("<HTTPSamplerProxyLookalike guiclass=\"X\""), "another element is left alone");
        JmxTree back = JmxTree.parse(Files.writeString(dir.resolve("back.jmx"),
                HttpRequestConversion.convert(JmxTree.parse(Files.writeString(dir.resolve("s.jmx"), r.text())),
                        HttpRequestEngine.STOCK).text()));
        assertEquals(2, HttpRequestConversion.count(back, HttpRequestEngine.STOCK), "back to JMeter's alias form");
    }

    @Test
    void aRequestTheRewriteCannotSeeAsTheParserDoesIsRefused(@TempDir Path dir) throws Exception {
        // In a CDATA section the text looks like an element to the rewrite but is text to the parser.
        Path plan = Files.writeString(dir.resolve("cdata.jmx"), """
                <jmeterTestPlan><hashTree>
                  <JSR223Sampler testname="s"><stringProp name="script"><![CDATA[ "<HTTPSamplerProxy>" ]]></stringProp></JSR223Sampler>
                </hashTree></jmeterTestPlan>
                """);
        PlanException e = assertThrows(PlanException.class,
                () -> HttpRequestConversion.convert(JmxTree.parse(plan), HttpRequestEngine.STAMPEDE));
        assertTrue(e.getMessage().contains("cdata.jmx: 0 HTTP Requests (HTTPSamplerProxy) in the plan, but 1"),
                e.getMessage());
    }

    @Test
    void engineNamesAreCheckedAndTheChoicesNamed() {
        assertEquals(HttpRequestEngine.STAMPEDE, HttpRequestEngine.parse("--engine", "Stampede"));
        assertEquals(HttpRequestEngine.STOCK, HttpRequestEngine.parse("--engine", "stock"));
        assertEquals(HttpRequestEngine.STOCK, HttpRequestEngine.parse("--engine", "hc4"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpRequestEngine.parse("--engine", "netty"));
        assertEquals("--engine netty: unknown engine; choose one of stampede (the Netty engine), stock (JMeter's own"
                + " HTTP Request; also: hc4)", e.getMessage());
    }

    /** Each element's children (its properties), compared as XML nodes, in order. */
    static void assertSameProperties(JmxTree a, String tagA, JmxTree b, String tagB) {
        List<Element> left = elements(a, tagA);
        List<Element> right = elements(b, tagB);
        assertEquals(left.size(), right.size());
        for (int i = 0; i < left.size(); i++) {
            assertEquals(left.get(i).getAttribute("testname"), right.get(i).getAttribute("testname"));
            assertEquals(left.get(i).getAttribute("enabled"), right.get(i).getAttribute("enabled"));
            List<Element> pa = JmxTree.elements(left.get(i));
            List<Element> pb = JmxTree.elements(right.get(i));
            assertEquals(pa.size(), pb.size(), "properties of " + left.get(i).getAttribute("testname"));
            for (int j = 0; j < pa.size(); j++) {
                assertTrue(pa.get(j).isEqualNode(pb.get(j)), "property " + pa.get(j).getAttribute("name"));
            }
        }
    }

    static List<Element> elements(JmxTree plan, String tag) {
        NodeList nodes = plan.top().getOwnerDocument().getElementsByTagName(tag);
        return java.util.stream.IntStream.range(0, nodes.getLength()).mapToObj(i -> (Element) nodes.item(i)).toList();
    }
}
