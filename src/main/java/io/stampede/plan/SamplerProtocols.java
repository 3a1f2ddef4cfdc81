/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

import io.stampede.engine.HttpProtocol;
import io.stampede.names.PluginNames;
import io.stampede.sampler.HttpRawSampler;
import io.stampede.sampler.HttpSampler;
import io.stampede.sampler.ProtocolSettings;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.w3c.dom.Element;

/**
 * The protocol and concurrency fields of a plan's Stampede samplers, checked before a run with the samplers' own
 * rules and words ({@link ProtocolSettings}): an unknown protocol, streams or connections of 0, an HTTP/1.1 setting
 * with HTTP/2, h2 on a sampler not set to TLS; and the protocol of JMeter's HTTP Requests, their own or plan-wide
 * ({@code -J stampede.protocol}). Otherwise each of these fails every sample of the run.
 *
 * <p>A field is taken as the run would take it: {@code ${__P(name,default)}} and {@code ${__property(...)}} with the
 * -J properties given, {@code ${variable}} with the test plan's user defined variables. A field whose value cannot
 * be known before the run (another function, a variable set during the run, a property without a default) is left
 * to the sampler's own check at its first sample: it reads as not set here, which is valid for every field but the
 * protocol, and a sampler whose protocol cannot be known is not checked at all.
 */
public final class SamplerProtocols {

    /** The property a field reads, for the fix: ${__P(name...)} or ${__property(name...)}. */
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{__(?:P|property)\\(\\s*([^,()\\s]+)");

    /** JMeter's HTTP Request as stored by stock JMeter and by the engine switch; both read stampede.protocol. */
    private static final Set<String> HTTP_REQUESTS =
            Set.of("HTTPSamplerProxy", PluginNames.HTTP_REQUEST_CLASS);

    private SamplerProtocols() {}

    /**
     * Checks every enabled Stampede sampler of the plan.
     *
     * @param properties JMeter properties given with -J name=value
     * @throws PlanException naming the plan, the sampler, the field and the fix
     */
    public static void check(JmxTree plan, Map<String, String> properties) throws PlanException {
        String planWide = properties.get(PluginNames.PROTOCOL);
        if (planWide != null) {
            try {
                HttpProtocol.parse("-J " + PluginNames.PROTOCOL, planWide);
            } catch (IllegalArgumentException e) {
                throw new PlanException(e.getMessage());
            }
        }
        try { // the HTTP Requests' plan-wide HTTP/2 options (the Stampede samplers have fields of their own)
            ProtocolSettings.http2Options(name -> properties.getOrDefault(name, ""));
        } catch (IllegalArgumentException e) {
            throw new PlanException("-J " + e.getMessage());
        }
        PropertyResolver resolver = new PropertyResolver(plan.fileName(), properties);
        for (JmxTree.Entry entry : JmxTree.children(plan.top())) {
            if (entry.type().equals("TestPlan")) {
                resolver = resolver.withVariablesOf(entry.element(), false);
            }
        }
        walk(plan.fileName(), plan.top(), resolver);
    }

    private static void walk(String file, Element hashTree, PropertyResolver resolver) throws PlanException {
        for (JmxTree.Entry entry : JmxTree.children(hashTree)) {
            String type = entry.type();
            if (type.equals(PluginNames.HTTP_RAW_SAMPLER_CLASS) || type.equals(PluginNames.HTTP_SAMPLER_CLASS)) {
                sampler(file, entry, resolver);
            } else if (HTTP_REQUESTS.contains(type)) {
                httpRequest(file, entry, resolver);
            }
            if (entry.children() != null) {
                walk(file, entry.children(), resolver);
            }
        }
    }

    /**
     * JMeter's HTTP Request on the engine: its own protocol and HTTP/2 options, when it has them (else the -J ones
     * apply). Its transport comes from the URL, often from an HTTP Request Defaults, so it is left to the sample.
     */
    private static void httpRequest(String file, JmxTree.Entry entry, PropertyResolver resolver) throws PlanException {
        Fields fields = new Fields(entry.element(), resolver);
        try {
            ProtocolSettings.http2Options(name -> fields.unknown(name) ? "" : fields.value(name));
        } catch (IllegalArgumentException e) {
            throw new PlanException(file + ": HTTP Request '" + entry.name() + "', " + e.getMessage()
                    + fields.origin(e.getMessage()));
        }
        String value = fields.value(PluginNames.PROTOCOL);
        if (fields.unknown(PluginNames.PROTOCOL) || value.isBlank()) {
            return;
        }
        try {
            HttpProtocol.parse(PluginNames.PROTOCOL + " of HTTP Request '" + entry.name() + "'", value);
        } catch (IllegalArgumentException e) {
            throw new PlanException(file + ": " + e.getMessage() + fields.origin(PluginNames.PROTOCOL));
        }
    }

    private static void sampler(String file, JmxTree.Entry entry, PropertyResolver resolver) throws PlanException {
        Fields fields = new Fields(entry.element(), resolver);
        if (fields.unknown(PluginNames.PROTOCOL)) {
            return;
        }
        String where = file + ": sampler '" + entry.name() + "': ";
        ProtocolSettings settings;
        try {
            settings = ProtocolSettings.read(fields::value);
        } catch (IllegalArgumentException e) {
            throw new PlanException(where + e.getMessage() + fields.origin(e.getMessage()));
        }
        boolean raw = entry.type().equals(PluginNames.HTTP_RAW_SAMPLER_CLASS);
        String transport = raw ? PluginNames.RAW_TLS : PluginNames.HTTP_SCHEME;
        String value = fields.value(transport).trim().toLowerCase(Locale.ROOT);
        if (fields.unknown(transport) || !raw && !value.isEmpty() && !value.equals("http") && !value.equals("https")) {
            return; // the sampler names a scheme it does not know itself, at its first sample
        }
        try {
            settings.requireTransport(raw ? value.equals("true") : value.equals("https"),
                    raw ? HttpRawSampler.TLS_HINT : HttpSampler.TLS_HINT);
        } catch (IllegalArgumentException e) {
            throw new PlanException(where + e.getMessage() + fields.origin(e.getMessage()));
        }
    }

    /** One sampler's fields as the run would read them, each resolved once. */
    private static final class Fields {
        private final Element element;
        private final PropertyResolver resolver;
        /** name -> resolved value, or null when it cannot be known before the run. */
        private final Map<String, String> resolved = new LinkedHashMap<>();

        Fields(Element element, PropertyResolver resolver) {
            this.element = element;
            this.resolver = resolver;
        }

        String value(String name) {
            String v = resolve(name);
            return v == null ? "" : v;
        }

        boolean unknown(String name) {
            return resolve(name) == null;
        }

        private String resolve(String name) {
            if (!resolved.containsKey(name)) {
                String raw = raw(name);
                String v;
                try {
                    v = resolver.resolve(raw, name);
                } catch (PlanException e) {
                    v = null;
                }
                resolved.put(name, v);
            }
            return resolved.get(name);
        }

        private String raw(String name) {
            String raw = JmxTree.text(JmxTree.prop(element, name));
            return raw == null ? "" : raw;
        }

        /** Where the value named first in {@code message} came from, when the plan writes it as an expression. */
        String origin(String message) {
            for (String name : resolved.keySet()) {
                String raw = raw(name).trim();
                if (message.startsWith(name) && raw.contains("${")) {
                    Matcher property = PROPERTY.matcher(raw);
                    return " (the plan's " + name + " is '" + raw + "'" + (property.find()
                            ? ": give a valid value with -J " + property.group(1) + "=VALUE, or fix the plan)"
                            : ", read with the -J properties given: fix the plan or the properties)");
                }
            }
            return "";
        }
    }
}
