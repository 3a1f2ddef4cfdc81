/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

import io.stampede.names.PluginNames;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which sampler class runs a plan's HTTP Requests: JMeter's own (stock: HTTPSamplerProxy, HttpClient4 unless the
 * sampler picks Java) or Stampede's (EngineHttpRequest, the same element on the Netty engine). Each is saved in a
 * .jmx as an element name, a testclass and a guiclass; the other engine's forms are what a switch or a conversion
 * replaces.
 */
public enum HttpRequestEngine {

    STAMPEDE("stampede", PluginNames.HTTP_REQUEST_CLASS, PluginNames.HTTP_REQUEST_CLASS,
            PluginNames.HTTP_REQUEST_GUI_CLASS, "Netty engine (EngineHttpRequest)",
            "stampede-switch-to-stampede.jar"),
    // JMeter saves its HTTP Request under the aliases of bin/saveservice.properties; plans written by hand may use
    // the full class names, which JMeter reads too.
    STOCK("stock", "HTTPSamplerProxy", "org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy",
            "HttpTestSampleGui", "JMeter's HTTP Request (HttpClient4)", "stampede-switch-to-stock.jar");

    /** Another name users know the stock engine by (the issue and JMeter's Implementation field say HttpClient4). */
    private static final String STOCK_ALIAS = "hc4";

    private final String id;
    private final String savedClass;
    private final String className;
    private final String savedGui;
    private final String description;
    private final String switchJar;

    HttpRequestEngine(String id, String savedClass, String className, String savedGui, String description,
            String switchJar) {
        this.id = id;
        this.savedClass = savedClass;
        this.className = className;
        this.savedGui = savedGui;
        this.description = description;
        this.switchJar = switchJar;
    }

    /**
     * The engine named {@code name} (case-insensitive).
     *
     * @throws IllegalArgumentException naming {@code option} and the choices
     */
    public static HttpRequestEngine parse(String option, String name) {
        String n = name.toLowerCase(Locale.ROOT).trim();
        for (HttpRequestEngine e : values()) {
            if (e.id.equals(n)) {
                return e;
            }
        }
        if (STOCK_ALIAS.equals(n)) {
            return STOCK;
        }
        throw new IllegalArgumentException(option + " " + name + ": unknown engine; choose one of " + choices());
    }

    /** The names {@link #parse} takes, for messages and help. */
    public static String choices() {
        return "stampede (the Netty engine), stock (JMeter's own HTTP Request; also: hc4)";
    }

    public String id() {
        return id;
    }

    /** The element name and testclass this engine's HTTP Request is saved with. */
    String savedClass() {
        return savedClass;
    }

    /** The guiclass this engine's HTTP Request is saved with. */
    String savedGui() {
        return savedGui;
    }

    /** Every name the class may be saved under: the saveservice alias and the full class name. */
    Set<String> classForms() {
        return new LinkedHashSet<>(List.of(savedClass, className));
    }

    /** Every name the GUI may be saved under. */
    List<String> guiForms() {
        return this == STOCK ? List.of(savedGui, "org.apache.jmeter.protocol.http.control.gui.HttpTestSampleGui")
                : List.of(savedGui);
    }

    public String className() {
        return className;
    }

    public String description() {
        return description;
    }

    /** The engine whose HTTP Requests this one's switch replaces. */
    public HttpRequestEngine other() {
        return this == STAMPEDE ? STOCK : STAMPEDE;
    }

    /**
     * The jar (one NameUpdater resource, no classes) that makes JMeter load the other engine's HTTP Requests as this
     * engine's; it lives in the bundled JMeter home's {@code switch/} folder.
     */
    public String switchJar() {
        return switchJar;
    }
}
