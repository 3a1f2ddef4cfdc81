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
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.w3c.dom.Element;

/**
 * What a plan will ask of the injector: how many threads, whether they keep connections alive, how many
 * connections each thread holds, and so how many connections are open at once and how many new ones are opened
 * per second. Stampede's samplers are read through the plugin's own property names.
 *
 * <p>A plain thread has no fixed rate: it sends its next request as soon as the last one is answered. Without
 * timers that rate is bounded by the response time, so the estimate assumes {@link #ASSUMED_SAMPLE_MILLIS} per
 * sample (a LAN response time) and says so; --rate replaces the estimate with a real figure.
 *
 * @param load the connections and new connections per second, with how they were obtained
 * @param targets the distinct host:port pairs the plan's samplers address
 */
public record LoadEstimate(PlannedLoad load, Set<String> targets) {

    /** Assumed time per sample of a thread with no timers; stated in the report. */
    public static final int ASSUMED_SAMPLE_MILLIS = 10;

    private static final String STOCK_HTTP = "HTTPSamplerProxy";
    private static final Pattern CONNECTION_HEADER = Pattern.compile("(?im)^\\s*connection\\s*:\\s*(\\S[^\\r\\n]*?)\\s*$");

    public LoadEstimate {
        targets = Set.copyOf(targets);
    }

    /**
     * The estimate for a parsed plan.
     *
     * @param properties JMeter properties given with -J name=value, used by ${__P(name,default)}
     * @throws PlanException naming the element, the field and the fix when a figure cannot be known
     */
    public static LoadEstimate of(JmxTree plan, Map<String, String> properties) throws PlanException {
        Walk walk = new Walk(plan.fileName(), new PropertyResolver(plan.fileName(), properties));
        walk.tree(plan.top(), null);
        if (walk.groups.isEmpty()) {
            throw new PlanException(walk.file + ": no enabled thread group found; add one or give --connections/--rate");
        }
        return walk.result();
    }

    /**
     * The users of the plan's Stampede Virtual User Thread Groups (0 when it has none): what its heap must hold.
     *
     * @throws PlanException naming the element and the field when a user count cannot be read
     */
    public static long virtualUsers(JmxTree plan, Map<String, String> properties) throws PlanException {
        Walk walk = new Walk(plan.fileName(), new PropertyResolver(plan.fileName(), properties));
        walk.tree(plan.top(), null);
        return walk.groups.stream().filter(Group::virtual).mapToLong(Group::threads).sum();
    }

    /** One thread group as the injector sees it. */
    private record Group(String name, long threads, OptionalLong loops, OptionalDouble arrivalsPerSecond,
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
    private record Sampler(boolean keepAlive, boolean resetsPerIteration, boolean serverCloses,
            long connectionsPerThread) {
    }

    /** Walks the plan depth first; not thread-safe, one per estimate. */
    private static final class Walk {
        final String file;
        final List<Group> groups = new ArrayList<>();
        final Set<String> targets = new LinkedHashSet<>();
        PropertyResolver resolver;
        /** The enclosing thread group keeps "Same user on each iteration" (JMeter's default). */
        boolean sameUser = true;

        Walk(String file, PropertyResolver resolver) {
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
                        (long) Math.ceil(perSecond * Math.max(1, samplers.size()) * ASSUMED_SAMPLE_MILLIS / 1000.0));
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

        LoadEstimate result() throws PlanException {
            long connections = 0;
            double rate = 0;
            long total = 0;
            boolean totalKnown = true;
            List<String> basis = new ArrayList<>();
            boolean assumed = false;
            for (Group g : groups) {
                long perThread = 1;
                int newPerIteration = 0;
                int serverClosedPerIteration = 0;
                boolean resets = false;
                for (Sampler s : g.samplers) {
                    if (s.serverCloses) {
                        serverClosedPerIteration++;
                    } else if (!s.keepAlive) {
                        newPerIteration++;
                    } else if (s.resetsPerIteration) {
                        resets = true;
                    } else {
                        perThread = Math.max(perThread, s.connectionsPerThread);
                    }
                }
                if (resets) {
                    newPerIteration++;
                }
                int samplesPerIteration = Math.max(1, g.samplers.size());
                double iterationsPerSecond;
                if (g.arrivalsPerSecond.isPresent()) {
                    iterationsPerSecond = g.arrivalsPerSecond.getAsDouble();
                } else {
                    iterationsPerSecond = g.threads * 1000.0 / (samplesPerIteration * (double) ASSUMED_SAMPLE_MILLIS);
                    assumed |= newPerIteration + serverClosedPerIteration > 0;
                }
                long groupConnections = g.threads * perThread;
                double groupRate = iterationsPerSecond * newPerIteration;
                connections += groupConnections;
                rate += groupRate;
                if (g.loops.isPresent()) {
                    total += g.threads * g.loops.getAsLong() * newPerIteration;
                } else if (newPerIteration > 0) {
                    totalKnown = false;
                }
                basis.add(describe(g, perThread, newPerIteration, serverClosedPerIteration > 0, groupRate));
                if (serverClosedPerIteration > 0) {
                    basis.add("thread group " + g.name + ": " + serverClosedPerIteration + " sampler(s) send 'Connection:"
                            + " close' (keep-alive off): about " + Numbers.rate(iterationsPerSecond * serverClosedPerIteration)
                            + " new connections/s that the server closes, so their TIME_WAIT is on the server, not here");
                }
            }
            if (assumed) {
                basis.add("new connections/s assume " + ASSUMED_SAMPLE_MILLIS + " ms per sample (LAN, no timers);"
                        + " give --rate for the real figure");
            }
            connections = shared(connections, basis);
            OptionalDouble r = OptionalDouble.of(rate);
            OptionalLong t = rate > 0 && totalKnown ? OptionalLong.of(total) : OptionalLong.empty();
            return new LoadEstimate(new PlannedLoad(OptionalLong.of(connections), r, t, basis), targets);
        }

        /**
         * With {@code stampede.connection_sharing=engine} Stampede's samplers borrow from one pool per target, so
         * the open connections are capped by the pool, whatever the number of users.
         */
        private long shared(long connections, List<String> basis) throws PlanException {
            String mode = setting(PluginNames.CONNECTION_SHARING, "thread");
            if (!mode.equals("engine")) {
                if (!mode.equals("thread") && !mode.isEmpty()) {
                    throw new PlanException(PluginNames.CONNECTION_SHARING + "=" + mode + ": give thread (each user keeps its "
                            + "own connections) or engine (users share a pool of " + PluginNames.POOL_SIZE + ")");
                }
                if (groups.stream().anyMatch(g -> g.virtual) && connections > 0) {
                    basis.add("virtual users keep their own connections (" + PluginNames.CONNECTION_SHARING + "=thread); with"
                            + " many idle users, -J " + PluginNames.CONNECTION_SHARING + "=engine shares a pool of at most "
                            + PluginNames.POOL_SIZE + " (default " + PluginNames.DEFAULT_POOL_SIZE + ") per target instead");
                }
                return connections;
            }
            String raw = setting(PluginNames.POOL_SIZE, Long.toString(PluginNames.DEFAULT_POOL_SIZE));
            long size;
            try {
                size = Long.parseLong(raw);
            } catch (NumberFormatException e) {
                size = 0;
            }
            if (size < 1) {
                throw new PlanException(PluginNames.POOL_SIZE + "=" + raw + ": give the most connections per target the shared"
                        + " pool may open, a whole number of 1 or more (default " + PluginNames.DEFAULT_POOL_SIZE + ")");
            }
            long cap = size * Math.max(1, targets.size());
            basis.add("connections shared by all users (" + PluginNames.CONNECTION_SHARING + "=engine): at most " + size
                    + " per target (" + PluginNames.POOL_SIZE + ") x " + Math.max(1, targets.size()) + " target(s)");
            return Math.min(connections, cap);
        }

        /** A JMeter property given with -J, as the plugins read it. */
        private String setting(String name, String fallback) throws PlanException {
            return resolver.resolve("${__P(" + name + "," + fallback + ")}", "-J " + name).trim();
        }

        private String describe(Group g, long perThread, int newPerIteration, boolean serverCloses, double rate) {
            StringBuilder s = new StringBuilder("thread group " + g.name + ": ");
            if (g.arrivalsPerSecond.isPresent()) {
                s.append(Numbers.rate(g.arrivalsPerSecond.getAsDouble())).append(" arrivals/s, ");
            }
            s.append(g.threads).append(g.virtual ? (g.threads == 1 ? " virtual user" : " virtual users")
                    : g.threads == 1 ? " thread" : " threads");
            if (g.loops.isPresent()) {
                s.append(" x ").append(g.loops.getAsLong()).append(" loops");
            }
            s.append(", ").append(g.samplers.size()).append(" HTTP sampler(s), ");
            if (newPerIteration == 0) {
                s.append(serverCloses ? "no connections closed by the injector" : "keep-alive");
                if (perThread > 1) {
                    s.append(", ").append(perThread).append(" connections per thread");
                }
            } else {
                s.append(newPerIteration).append(" connection(s) per iteration closed by the injector (");
                s.append(g.samplers.stream().anyMatch(Sampler::resetsPerIteration)
                        ? "stock JMeter without 'Same user on each iteration' closes them at each iteration end"
                        : "keep-alive off");
                s.append(") = ").append(Numbers.rate(rate)).append(" new connections/s");
            }
            return s.toString();
        }
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
