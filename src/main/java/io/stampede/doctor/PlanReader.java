/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Reads a JMeter .jmx plan as XML (no JMeter classes needed) for what matters to the injector: how many
 * threads, whether they keep connections alive, how many connections each thread holds, and so how many
 * connections are open at once and how many new ones are opened per second.
 *
 * <p>A plain thread has no fixed rate: it sends its next request as soon as the last one is answered. Without
 * timers that rate is bounded by the response time, so the reader assumes {@link #ASSUMED_SAMPLE_MILLIS} per
 * sample (a LAN response time) and says so; --rate replaces the estimate with a real figure.
 */
public final class PlanReader {

    /** Assumed time per sample of a thread with no timers; stated in the report. */
    public static final int ASSUMED_SAMPLE_MILLIS = 10;

    private static final String RAW = "io.stampede.sampler.HttpRawSampler";
    private static final String HTTP = "io.stampede.sampler.HttpSampler";
    private static final String STOCK_HTTP = "HTTPSamplerProxy";
    private static final String VIRTUAL_USERS = "io.stampede.threads.VirtualUserThreadGroup";
    /** JMeter properties of Stampede's engine-wide connection pool (plugins: io.stampede.sampler.ConnectionSharing). */
    static final String CONNECTION_SHARING = "stampede.connection_sharing";
    static final String POOL_SIZE = "stampede.pool_size";
    static final long DEFAULT_POOL_SIZE = 1000;
    private static final Pattern PROPERTY_FUNCTION =
            Pattern.compile("\\$\\{__(P|property)\\(\\s*([^,()]+?)\\s*(?:,([^,()]*))?(?:,([^()]*))?\\)\\}");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_.-]*)\\}");
    private static final Pattern CONNECTION_HEADER = Pattern.compile("(?im)^\\s*connection\\s*:\\s*(\\S[^\\r\\n]*?)\\s*$");

    private final Map<String, String> properties;

    /** @param properties JMeter properties given with -J name=value, used by ${__P(name,default)} */
    public PlanReader(Map<String, String> properties) {
        this.properties = Map.copyOf(properties);
    }

    /** The plan's load and the distinct host:port pairs its samplers address. */
    public record Plan(PlannedLoad load, Set<String> targets) {
        public Plan {
            targets = Set.copyOf(targets);
        }
    }

    public Plan read(Path jmx) throws PlanException {
        Element root = parse(jmx);
        Walk walk = new Walk(jmx.getFileName().toString());
        Element top = firstChild(root, "hashTree");
        if (top == null) {
            throw new PlanException(walk.file + ": not a JMeter plan (no <hashTree> under <jmeterTestPlan>)");
        }
        walk.tree(top, null);
        if (walk.groups.isEmpty()) {
            throw new PlanException(walk.file + ": no enabled thread group found; add one or give --connections/--rate");
        }
        return walk.result();
    }

    private static Element parse(Path jmx) throws PlanException {
        try (InputStream in = Files.newInputStream(jmx)) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(null);
            return builder.parse(in).getDocumentElement();
        } catch (java.nio.file.NoSuchFileException e) {
            throw new PlanException(jmx + ": no such file");
        } catch (IOException e) {
            throw new PlanException(jmx + ": cannot read the plan: " + e);
        } catch (SAXException e) {
            throw new PlanException(jmx + ": not a well-formed .jmx (XML) file: " + e.getMessage());
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
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

    /** Walks the hashTree pairs (element, its children) depth first; not thread-safe, one per read. */
    private final class Walk {
        final String file;
        final List<Group> groups = new ArrayList<>();
        final Map<String, String> variables = new LinkedHashMap<>();
        final Set<String> targets = new LinkedHashSet<>();
        /** The enclosing thread group keeps "Same user on each iteration" (JMeter's default). */
        boolean sameUser = true;

        Walk(String file) {
            this.file = file;
        }

        void tree(Element hashTree, List<Sampler> samplers) throws PlanException {
            List<Element> children = elements(hashTree);
            for (int i = 0; i < children.size(); i++) {
                Element e = children.get(i);
                if (e.getTagName().equals("hashTree")) {
                    continue;
                }
                Element sub = i + 1 < children.size() && children.get(i + 1).getTagName().equals("hashTree")
                        ? children.get(i + 1) : null;
                if ("false".equals(e.getAttribute("enabled"))) {
                    continue;
                }
                String type = e.getAttribute("testclass").isEmpty() ? e.getTagName() : e.getAttribute("testclass");
                if (type.equals("TestPlan")) {
                    readVariables(e);
                }
                if (isThreadGroup(type)) {
                    sameUser = !"false".equals(value(e, "ThreadGroup.same_user_on_next_iteration", "true", "'"
                            + e.getAttribute("testname") + "'"));
                    List<Sampler> inGroup = new ArrayList<>();
                    if (sub != null) {
                        tree(sub, inGroup);
                    }
                    groups.add(group(e, type, inGroup));
                    continue;
                }
                if (samplers != null && isHttpSampler(type)) {
                    samplers.add(sampler(e, type));
                }
                if (sub != null) {
                    tree(sub, samplers);
                }
            }
        }

        private void readVariables(Element testPlan) throws PlanException {
            Element args = prop(testPlan, "TestPlan.user_defined_variables");
            Element list = args == null ? null : prop(args, "Arguments.arguments");
            if (list == null) {
                return;
            }
            for (Element arg : elements(list)) {
                String name = text(prop(arg, "Argument.name"));
                if (name != null && !name.isBlank()) {
                    variables.put(name.trim(), resolve(text(prop(arg, "Argument.value")), "user defined variable " + name));
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
                long threads = limit > 0 ? limit
                        : Math.max(1, (long) Math.ceil(perSecond * Math.max(1, samplers.size()) * ASSUMED_SAMPLE_MILLIS / 1000.0));
                return new Group(name, threads, OptionalLong.empty(), OptionalDouble.of(perSecond), samplers);
            }
            String threadsField = dynamic ? "TargetLevel" : "ThreadGroup.num_threads";
            long threads = (long) number(e, threadsField, name, null);
            OptionalLong loops = OptionalLong.empty();
            if (type.equals("ThreadGroup") || type.equals("SetupThreadGroup") || type.equals("PostThreadGroup")
                    || type.equals(VIRTUAL_USERS)) {
                Element controller = prop(e, "ThreadGroup.main_controller");
                // loops = -1 is "Infinite"; a scheduler duration (a virtual-user hold time) also makes the run
                // open-ended for our purpose.
                long count = controller == null ? 1 : (long) number(controller, "LoopController.loops", name, "1");
                boolean scheduled = type.equals(VIRTUAL_USERS)
                        ? number(e, "VirtualUserThreadGroup.hold", name, "0") > 0
                        : "true".equals(value(e, "ThreadGroup.scheduler", "false", name));
                if (count >= 0 && !scheduled) {
                    loops = OptionalLong.of(count);
                }
            }
            return new Group(name, threads, loops, OptionalDouble.empty(), samplers, type.equals(VIRTUAL_USERS));
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
            boolean keepAlive = "true".equals(value(e, "stampede.keep_alive", "true", name));
            String text = type.equals(RAW) ? value(e, "stampede.raw.request", "", name)
                    : value(e, "stampede.http.headers", "", name);
            Matcher header = CONNECTION_HEADER.matcher(text);
            String connection = header.find() ? header.group(1).toLowerCase(java.util.Locale.ROOT) : null;
            long perThread = (long) number(e, "stampede.connections_per_thread", name, "1");
            if (perThread < 1) {
                throw new PlanException(file + ": " + name + ": stampede.connections_per_thread must be at least 1, got "
                        + perThread);
            }
            addTarget(value(e, "stampede.host", "", name), value(e, "stampede.port", "80", name));
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
            String raw = text(prop(e, field));
            if (raw == null || raw.isBlank()) {
                return fallback;
            }
            return resolve(raw, where + " " + field).trim();
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

        /** Evaluates ${__P(name,default)}, ${__property(name,,default)} and ${variable}; anything else is an error. */
        private String resolve(String raw, String where) throws PlanException {
            if (raw == null) {
                return "";
            }
            Matcher m = PROPERTY_FUNCTION.matcher(raw);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String key = m.group(2);
                String fallback = m.group(1).equals("P") ? m.group(3) : m.group(4);
                String v = properties.get(key);
                if (v == null) {
                    // JMeter's __P without a default yields "1".
                    v = fallback != null ? fallback.trim() : m.group(1).equals("P") ? "1" : null;
                }
                if (v == null) {
                    throw new PlanException(file + ": " + where + " uses property '" + key
                            + "', which has no default; give it with -J " + key + "=VALUE");
                }
                m.appendReplacement(out, Matcher.quoteReplacement(v));
            }
            m.appendTail(out);
            Matcher vars = VARIABLE.matcher(out.toString());
            StringBuilder done = new StringBuilder();
            while (vars.find()) {
                String v = variables.get(vars.group(1));
                if (v == null) {
                    throw new PlanException(file + ": " + where + " = '" + raw + "': variable ${" + vars.group(1)
                            + "} is not a user defined variable of the test plan; use ${__P(name,default)} and -J");
                }
                vars.appendReplacement(done, Matcher.quoteReplacement(v));
            }
            vars.appendTail(done);
            if (done.indexOf("${") >= 0) {
                throw new PlanException(file + ": " + where + " = '" + raw + "' uses a function the doctor cannot"
                        + " evaluate; write the number, use ${__P(name,default)} with -J, or give --connections/--rate");
            }
            return done.toString();
        }

        Plan result() throws PlanException {
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
            return new Plan(new PlannedLoad(OptionalLong.of(connections), r, t, basis), targets);
        }

        /**
         * With {@code stampede.connection_sharing=engine} Stampede's samplers borrow from one pool per target, so
         * the open connections are capped by the pool, whatever the number of users.
         */
        private long shared(long connections, List<String> basis) throws PlanException {
            String mode = properties.getOrDefault(CONNECTION_SHARING, "thread").trim();
            if (!mode.equals("engine")) {
                if (!mode.equals("thread") && !mode.isEmpty()) {
                    throw new PlanException(CONNECTION_SHARING + "=" + mode + ": give thread (each user keeps its "
                            + "own connections) or engine (users share a pool of " + POOL_SIZE + ")");
                }
                if (groups.stream().anyMatch(g -> g.virtual) && connections > 0) {
                    basis.add("virtual users keep their own connections (" + CONNECTION_SHARING + "=thread); with"
                            + " many idle users, -J " + CONNECTION_SHARING + "=engine shares a pool of at most "
                            + POOL_SIZE + " (default " + DEFAULT_POOL_SIZE + ") per target instead");
                }
                return connections;
            }
            String raw = properties.getOrDefault(POOL_SIZE, Long.toString(DEFAULT_POOL_SIZE)).trim();
            long size;
            try {
                size = Long.parseLong(raw);
            } catch (NumberFormatException e) {
                size = 0;
            }
            if (size < 1) {
                throw new PlanException(POOL_SIZE + "=" + raw + ": give the most connections per target the shared"
                        + " pool may open, a whole number of 1 or more (default " + DEFAULT_POOL_SIZE + ")");
            }
            long cap = size * Math.max(1, targets.size());
            basis.add("connections shared by all users (" + CONNECTION_SHARING + "=engine): at most " + size
                    + " per target (" + POOL_SIZE + ") x " + Math.max(1, targets.size()) + " target(s)");
            return Math.min(connections, cap);
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
                || type.equals(VIRTUAL_USERS) || type.equals("kg.apc.jmeter.threads.SteppingThreadGroup")
                || type.startsWith("com.blazemeter.jmeter.threads.") && type.endsWith("ThreadGroup");
    }

    private static boolean isHttpSampler(String type) {
        return type.equals(RAW) || type.equals(HTTP) || type.equals(STOCK_HTTP);
    }

    /** A direct child property (stringProp, boolProp, elementProp ...) with name="field". */
    private static Element prop(Element e, String field) {
        for (Element c : elements(e)) {
            if (c.getTagName().endsWith("Prop") && field.equals(c.getAttribute("name"))) {
                return c;
            }
        }
        return null;
    }

    private static String text(Element e) {
        return e == null ? null : e.getTextContent();
    }

    private static Element firstChild(Element e, String tag) {
        for (Element c : elements(e)) {
            if (c.getTagName().equals(tag)) {
                return c;
            }
        }
        return null;
    }

    private static List<Element> elements(Element e) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                out.add(c);
            }
        }
        return out;
    }
}
