/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import io.stampede.names.PluginNames;
import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import io.stampede.plan.PropertyResolver;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.w3c.dom.Element;

/**
 * The thread groups and HTTP samplers of a plan as the injector will run them, read depth first with the plan's
 * variables and the -J properties: per group its threads, loops or arrival rate, and per sampler whether it keeps
 * its connections; and the host:port pairs they address. Not thread-safe, one per estimate.
 */
final class PlanLoadReader {
    private static final String STOCK_HTTP = "HTTPSamplerProxy";
    private static final Pattern CONNECTION_HEADER =
            Pattern.compile("(?im)^\\s*connection\\s*:\\s*(\\S[^\\r\\n]*?)\\s*$");

    /** One thread group as the injector sees it. */
    record Group(String name, long threads, OptionalLong loops, OptionalDouble arrivalsPerSecond,
            List<Sampler> samplers, boolean virtual) {
        Group(String name, long threads, OptionalLong loops, OptionalDouble arrivalsPerSecond,
              List<Sampler> samplers) {
            this(name, threads, loops, arrivalsPerSecond, samplers, false);
        }
    }

    /**
     * How one sampler uses connections.
     *
     * @param keepAlive reuses its connection across samples (and iterations, unless resetsPerIteration)
     * @param resetsPerIteration stock JMeter: closes its connections at the end of each iteration
     * @param serverCloses a new connection per sample that the server closes (the request says "Connection:
     *     close"), so TIME_WAIT lands on the server, not on the injector
     */
    record Sampler(boolean keepAlive, boolean resetsPerIteration, boolean serverCloses,
            long connectionsPerThread) {
    }

    final String file;
    final List<Group> groups = new ArrayList<>();
    final Set<String> targets = new LinkedHashSet<>();
    PropertyResolver resolver;
    /** The enclosing thread group keeps "Same user on each iteration" (JMeter's default). */
    boolean sameUser = true;

    PlanLoadReader(String file, PropertyResolver resolver) {
        this.file = file;
        this.resolver = resolver;
    }

    void tree(Element hashTree, List<Sampler> samplers) throws PlanException {
        for (JmxTree.Entry entry : JmxTree.children(hashTree)) {
            Element e = entry.element();
            String type = entry.type();
            if (type.equals("TestPlan")) {
                resolver = resolver.withVariablesOf(e, true);
            }
            if (isThreadGroup(type)) {
                sameUser = !"false".equals(value(e, "ThreadGroup.same_user_on_next_iteration", "true", "'"
                        + entry.name() + "'"));
                List<Sampler> inGroup = new ArrayList<>();
                if (entry.children() != null) {
                    tree(entry.children(), inGroup);
                }
                groups.add(group(e, type, inGroup));
                continue;
            }
            if (samplers != null && isHttpSampler(type)) {
                samplers.add(sampler(e, type));
            }
            if (entry.children() != null) {
                tree(entry.children(), samplers);
            }
        }
    }

    private Group group(Element e, String type, List<Sampler> samplers) throws PlanException {
        String name = "'" + e.getAttribute("testname") + "'";
        boolean dynamic = type.startsWith("com.blazemeter.jmeter.threads.");
        if (type.endsWith("FreeFormArrivalsThreadGroup")) {
            throw new PlanException(file + ": thread group " + name + " is a Free-Form Arrivals Thread Group, whose"
                    + " schedule the doctor does not read; give the peak with --rate and --connections");
        }
        if (type.endsWith("arrivals.ArrivalsThreadGroup")) {
            double perUnit = number(e, "TargetLevel", name, null);
            String unit = value(e, "Unit", "S", name);
            double perSecond = "M".equals(unit) ? perUnit / 60.0 : perUnit;
            long limit = (long) number(e, "ConcurrencyLimit", name, "0");
            long threads = limit > 0 ? limit : Math.max(1,
                    (long) Math.ceil(perSecond * Math.max(1, samplers.size()) * LoadEstimate.ASSUMED_SAMPLE_MILLIS / 1000.0));
            return new Group(name, threads, OptionalLong.empty(), OptionalDouble.of(perSecond), samplers);
        }
        String threadsField = dynamic ? "TargetLevel" : "ThreadGroup.num_threads";
        long threads = (long) number(e, threadsField, name, null);
        OptionalLong loops = OptionalLong.empty();
        if (type.equals("ThreadGroup") || type.equals("SetupThreadGroup") || type.equals("PostThreadGroup")
                || type.equals(PluginNames.VIRTUAL_USER_THREAD_GROUP_CLASS)) {
            Element controller = JmxTree.prop(e, "ThreadGroup.main_controller");
            // loops = -1 is "Infinite"; a scheduler duration (a virtual-user hold time) also makes the run
            // open-ended for our purpose.
            long count = controller == null ? 1 : (long) number(controller, "LoopController.loops", name, "1");
            boolean scheduled = type.equals(PluginNames.VIRTUAL_USER_THREAD_GROUP_CLASS)
                    ? number(e, PluginNames.USERS_HOLD, name, "0") > 0
                    : "true".equals(value(e, "ThreadGroup.scheduler", "false", name));
            if (count >= 0 && !scheduled) {
                loops = OptionalLong.of(count);
            }
        }
        return new Group(name, threads, loops, OptionalDouble.empty(), samplers, type.equals(PluginNames.VIRTUAL_USER_THREAD_GROUP_CLASS));
    }

    private Sampler sampler(Element e, String type) throws PlanException {
        String name = "sampler '" + e.getAttribute("testname") + "'";
        if (type.equals(STOCK_HTTP)) {
            boolean keepAlive = "true".equals(value(e, "HTTPSampler.use_keepalive", "true", name));
            String host = value(e, "HTTPSampler.domain", "", name);
            String port = value(e, "HTTPSampler.port", "", name);
            addTarget(host, port.isBlank() ? "80" : port);
            // Without "Same user on each iteration" JMeter closes its HttpClient connections at the end of each
            // iteration: the injector closes first. Without keep-alive the closing side was not measured here,
            // so the injector is assumed to close (the worse case for its ports).
            return new Sampler(keepAlive, keepAlive && !sameUser, false, 1);
        }
        boolean keepAlive = "true".equals(value(e, PluginNames.KEEP_ALIVE, "true", name));
        String text = type.equals(PluginNames.HTTP_RAW_SAMPLER_CLASS) ? value(e, PluginNames.RAW_REQUEST, "", name)
                : value(e, PluginNames.HTTP_HEADERS, "", name);
        Matcher header = CONNECTION_HEADER.matcher(text);
        String connection = header.find() ? header.group(1).toLowerCase(Locale.ROOT) : null;
        long perThread = (long) number(e, PluginNames.CONNECTIONS_PER_THREAD, name, "1");
        if (perThread < 1) {
            throw new PlanException(file + ": " + name + ": " + PluginNames.CONNECTIONS_PER_THREAD
                    + " must be at least 1, got " + perThread);
        }
        addTarget(value(e, PluginNames.HOST, "", name),
                value(e, PluginNames.PORT, Integer.toString(PluginNames.DEFAULT_PORT), name));
        if ("close".equals(connection) || !keepAlive && connection == null) {
            // The request says "Connection: close" (our samplers add it when keep-alive is off): the server
            // closes after the response, so the TIME_WAIT socket is the server's.
            return new Sampler(false, false, true, perThread);
        }
        // keep-alive off but the request asks to keep alive: the sampler drops the connection itself.
        return new Sampler(keepAlive, false, false, perThread);
    }

    private void addTarget(String host, String port) {
        if (!host.isBlank()) {
            targets.add((host.contains(":") ? "[" + host + "]" : host) + ":" + port.trim());
        }
    }

    private String value(Element e, String field, String fallback, String where) throws PlanException {
        String raw = JmxTree.text(JmxTree.prop(e, field));
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        return resolver.resolve(raw, where + " " + field).trim();
    }

    private double number(Element e, String field, String where, String fallback) throws PlanException {
        String v = value(e, field, fallback, where);
        if (v == null) {
            throw new PlanException(file + ": " + where + ": " + field + " is missing; set it in the plan");
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException ex) {
            throw new PlanException(file + ": " + where + ": " + field + " = '" + v + "' is not a number;"
                    + " set it in the plan or with -J");
        }
    }
    /** A JMeter property given with -J, as the plugins read it. */
    String setting(String name, String fallback) throws PlanException {
        return resolver.resolve("${__P(" + name + "," + fallback + ")}", "-J " + name).trim();
    }

    private static boolean isThreadGroup(String type) {
        return type.equals("ThreadGroup") || type.equals("SetupThreadGroup") || type.equals("PostThreadGroup")
                || type.equals(PluginNames.VIRTUAL_USER_THREAD_GROUP_CLASS) || type.equals("kg.apc.jmeter.threads.SteppingThreadGroup")
                || type.startsWith("com.blazemeter.jmeter.threads.") && type.endsWith("ThreadGroup");
    }

    private static boolean isHttpSampler(String type) {
        return type.equals(PluginNames.HTTP_RAW_SAMPLER_CLASS) || type.equals(PluginNames.HTTP_SAMPLER_CLASS) || type.equals(STOCK_HTTP);
    }
}
