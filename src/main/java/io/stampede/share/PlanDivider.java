/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import io.stampede.names.PluginNames;
import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import io.stampede.plan.PropertyResolver;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Divides a plan's load into one share: reads a fresh copy of the plan, evaluates each figure that sets the load
 * (with the -J properties and the test plan's variables, as JMeter would) and writes this share's part in its
 * place; CSV Data Sets get their block of rows. Anything whose load it cannot divide is refused with the reason.
 */
public final class PlanDivider {

    static final String VIRTUAL_USERS = "io.stampede.threads.VirtualUserThreadGroup";
    static final String STEPPING = "kg.apc.jmeter.threads.SteppingThreadGroup";
    static final String CONCURRENCY = "com.blazemeter.jmeter.threads.concurrency.ConcurrencyThreadGroup";
    static final String ARRIVALS = "com.blazemeter.jmeter.threads.arrivals.ArrivalsThreadGroup";
    static final String CONNECTIONS = "stampede.connections_per_thread";
    static final String TARGET_RATE = "stampede.target_rate";

    private final ShareText share;
    private final String file;
    private final Path planDir;
    private PropertyResolver resolver;
    private final List<String> notes = new ArrayList<>();
    private final List<DividedPlan.CsvShare> csv = new ArrayList<>();

    private PlanDivider(ShareText share, JmxTree plan, Map<String, String> properties) {
        this.share = share;
        this.file = plan.fileName();
        this.planDir = plan.path().getParent();
        this.resolver = new PropertyResolver(file, properties);
    }

    /**
     * This share of the plan at {@code path}.
     *
     * @param properties the run's -J properties, as the plan's ${__P(...)} read them
     * @throws ShareRefusal naming the element, the reason and the fix
     */
    public static DividedPlan divide(Path path, Map<String, String> properties, Share share) {
        return divide(path, properties, new ShareText.OneShare(share));
    }

    /**
     * The plan for {@code engines} remote engines: every divided figure holds each engine's share, of which each
     * engine takes its own; CSV rows are written once per engine.
     */
    public static DividedPlan perEngine(Path path, Map<String, String> properties, int engines) {
        return divide(path, properties, new ShareText.EveryEngine(engines));
    }

    private static DividedPlan divide(Path path, Map<String, String> properties, ShareText share) {
        JmxTree plan;
        try {
            plan = JmxTree.parse(path);
        } catch (PlanException e) {
            throw new ShareRefusal("PLAN " + e.getMessage());
        }
        PlanDivider d = new PlanDivider(share, plan, properties);
        d.tree(plan.top());
        if (share instanceof ShareText.EveryEngine) {
            threadNames(plan, share.count());
        }
        return new DividedPlan(plan, share, d.csv, d.notes);
    }

    /**
     * Adds the plugin's element that names each engine's threads by its share ({@code i1of2-Users 1-7}) first under
     * the test plan, so that it runs before any other element's test start.
     */
    private static void threadNames(JmxTree plan, int shares) {
        leading(plan, PluginNames.SHARE_THREAD_NAMES_CLASS, "Stampede: thread names by share", "intProp",
                PluginNames.SHARE_THREAD_NAMES_SHARES, Integer.toString(shares));
    }

    /**
     * Adds one of the plugin's elements, with one property, first under the test plan (it acts at the test's start);
     * nothing when the plan has no test plan with children.
     */
    static void leading(JmxTree plan, String testClass, String name, String propTag, String propName, String value) {
        for (JmxTree.Entry entry : JmxTree.children(plan.top())) {
            if (entry.type().equals("TestPlan") && entry.children() != null) {
                Document doc = plan.top().getOwnerDocument();
                Element element = doc.createElement(testClass);
                element.setAttribute("guiclass", "TestBeanGUI");
                element.setAttribute("testclass", testClass);
                element.setAttribute("testname", name);
                element.setAttribute("enabled", "true");
                Element prop = doc.createElement(propTag);
                prop.setAttribute("name", propName);
                prop.setTextContent(value);
                element.appendChild(prop);
                Node first = entry.children().getFirstChild();
                entry.children().insertBefore(element, first);
                entry.children().insertBefore(doc.createElement("hashTree"), first);
                return;
            }
        }
    }

    private void tree(Element hashTree) {
        for (JmxTree.Entry entry : JmxTree.children(hashTree)) {
            String type = entry.type();
            Element e = entry.element();
            if (type.equals("TestPlan")) {
                try {
                    resolver = resolver.withVariablesOf(e, false);
                } catch (PlanException ex) {
                    throw refuse(entry, ex.getMessage());
                }
            } else if (type.endsWith("ThreadGroup")) {
                group(entry);
            } else if (type.equals("ConstantThroughputTimer")) {
                throughputTimer(entry);
            } else if (type.equals("org.apache.jmeter.timers.poissonarrivals.PreciseThroughputTimer")) {
                rate(entry, "throughput");
            } else if (type.equals("SyncTimer")) {
                whole(entry, "groupSize");
            } else if (type.equals("CSVDataSet")) {
                csv(entry);
            } else if (type.equals("kg.apc.jmeter.timers.VariableThroughputTimer")) {
                throw refuse(entry, "a Throughput Shaping Timer's schedule is not divided by Stampede; use a Constant"
                        + " Throughput Timer or an Arrivals Thread Group, or give each injector its own copy of the plan (with"
                        + " --remote: --whole-plan-per-engine, JMeter's way)");
            }
            if (entry.children() != null) {
                tree(entry.children());
            }
        }
    }

    private void group(JmxTree.Entry g) {
        String type = g.type();
        switch (type) {
            case "ThreadGroup", VIRTUAL_USERS -> threads(g, "ThreadGroup.num_threads");
            case STEPPING -> {
                threads(g, "ThreadGroup.num_threads");
                for (String f : List.of("Start users count", "Start users count burst", "Stop users count")) {
                    whole(g, f);
                }
            }
            case CONCURRENCY -> threads(g, "TargetLevel");
            case ARRIVALS -> {
                rate(g, "TargetLevel");
                whole(g, "ConcurrencyLimit");
                whole(g, "ArrivalsLimit");
            }
            case "SetupThreadGroup", "PostThreadGroup" -> notes.add(describe(g) + " runs whole in every share"
                    + " (it prepares or cleans up what each injector needs)");
            default -> throw refuse(g, "Stampede divides the Thread Group, the Stepping, Concurrency and Arrivals Thread"
                    + " Groups and the Virtual User Thread Group, not " + type + "; use one of those, or give each"
                    + " injector its own copy of the plan");
        }
    }

    /**
     * The group's users divided; when some share would get none and the group's load is in its Stampede samplers'
     * connections or target rate per thread, those are divided instead and every share keeps the users.
     */
    private void threads(JmxTree.Entry g, String field) {
        long users = number(g, field);
        List<Element> perThread = new ArrayList<>();
        boolean onlyStampede = g.children() == null || stampedeSamplers(g.children(), perThread);
        if (users >= share.count() || perThread.isEmpty()) {
            write(prop(g.element(), field), share.whole(users));
            return;
        }
        if (!onlyStampede) {
            throw refuse(g, users + " users for " + share.count() + " shares, and samplers other than Stampede's,"
                    + " whose load is per user: give at least " + share.count() + " users or fewer shares");
        }
        for (Element s : perThread) {
            Element c = prop(s, CONNECTIONS);
            if (c != null) {
                long connections = number(g, s, CONNECTIONS);
                if (connections < share.count()) {
                    throw refuse(g, users + " users with " + connections + " connections each for " + share.count()
                            + " shares: give at least " + share.count() + " users or connections, or fewer shares");
                }
                write(c, share.whole(connections));
            }
            Element r = prop(s, TARGET_RATE);
            if (r != null) {
                write(r, share.rate(decimal(g, s, TARGET_RATE)));
            }
        }
        notes.add(describe(g) + ": " + users + " users for " + share.count() + " shares, so every share keeps them"
                + " and divides their connections and target rate");
    }

    /** True when every sampler under the tree is Stampede's; collects those with a per-thread load. */
    private boolean stampedeSamplers(Element hashTree, List<Element> perThread) {
        boolean only = true;
        for (JmxTree.Entry e : JmxTree.children(hashTree)) {
            String type = e.type();
            if (type.startsWith("io.stampede.")) {
                if (prop(e.element(), CONNECTIONS) != null || prop(e.element(), TARGET_RATE) != null) {
                    perThread.add(e.element());
                }
            } else if (type.contains("Sampler")) {
                only = false;
            }
            if (e.children() != null) {
                only &= stampedeSamplers(e.children(), perThread);
            }
        }
        return only;
    }

    private void throughputTimer(JmxTree.Entry t) {
        String mode = value(t, t.element(), "calcMode");
        if (mode.isEmpty() || mode.equals("0")) {
            notes.add(describe(t) + " paces each thread (\"this thread only\"): divided with the threads");
            return;
        }
        rate(t, "throughput");
    }

    private void rate(JmxTree.Entry e, String field) {
        Element p = prop(e.element(), field);
        if (p != null && !value(e, e.element(), field).isEmpty()) {
            write(p, share.rate(decimal(e, e.element(), field)));
        }
    }

    /** A whole number divided; absent or blank (the element's own default, such as "no limit") is left alone. */
    private void whole(JmxTree.Entry e, String field) {
        Element p = prop(e.element(), field);
        if (p != null && !value(e, e.element(), field).isEmpty()) {
            long n = number(e, field);
            if (n > 0) {
                write(p, share.whole(n));
            }
        }
    }

    private void csv(JmxTree.Entry c) {
        String name = value(c, c.element(), "filename");
        if (name.isEmpty()) {
            throw refuse(c, "it has no file name to divide; set Filename");
        }
        Path source = planDir.resolve(name).normalize();
        String encoding = value(c, c.element(), "fileEncoding");
        String text;
        try {
            text = Files.readString(source, encoding.isEmpty() ? StandardCharsets.UTF_8 : Charset.forName(encoding));
        } catch (IOException | IllegalArgumentException ex) {
            throw refuse(c, "its file " + source + " cannot be read to divide its rows (" + ex.getMessage()
                    + "); fix Filename (relative to the plan's folder)");
        }
        boolean header = value(c, c.element(), "variableNames").isEmpty()
                || "true".equals(value(c, c.element(), "ignoreFirstLine"));
        CsvRows rows = CsvRows.of(text, header ? 1 : 0, "true".equals(value(c, c.element(), "quotedData")));
        if (rows.rows().size() < share.count()) {
            throw refuse(c, source.getFileName() + " has " + rows.rows().size() + " rows for " + share.count()
                    + " shares, and two shares never use the same row: give at least " + share.count() + " rows");
        }
        csv.add(new DividedPlan.CsvShare(prop(c.element(), "filename"), source,
                share.shares().stream().map(rows::shareOf).toList(), rows.rows().size()));
    }

    private long number(JmxTree.Entry e, String field) {
        return number(e, e.element(), field);
    }

    private long number(JmxTree.Entry e, Element holder, String field) {
        String v = value(e, holder, field);
        try {
            long n = Long.parseLong(v.isEmpty() ? "0" : v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException ex) {
            // refused below
        }
        throw refuse(e, field + " = '" + v + "' is not a whole number of 0 or more; fix it in the plan or with -J");
    }

    private BigDecimal decimal(JmxTree.Entry e, Element holder, String field) {
        String v = value(e, holder, field);
        try {
            BigDecimal d = new BigDecimal(v.isEmpty() ? "0" : v);
            if (d.signum() >= 0) {
                return d;
            }
        } catch (NumberFormatException ex) {
            // refused below
        }
        throw refuse(e, field + " = '" + v + "' is not a number of 0 or more; fix it in the plan or with -J");
    }

    /** A field's value as JMeter will see it, evaluated now; refused when it cannot be known before the run. */
    private String value(JmxTree.Entry e, Element holder, String field) {
        Element p = prop(holder, field);
        if (p == null) {
            return "";
        }
        String raw = p.getTagName().equals("doubleProp") || p.getTagName().equals("floatProp")
                ? JmxTree.text(child(p, "value")) : JmxTree.text(p);
        try {
            return resolver.resolve(raw, field).trim();
        } catch (PlanException ex) {
            throw refuse(e, "cannot be divided before the run: " + ex.getMessage());
        }
    }

    private static void write(Element prop, String value) {
        if (prop == null) {
            return; // the element's default, 0
        }
        Element target = prop.getTagName().equals("doubleProp") || prop.getTagName().equals("floatProp")
                ? child(prop, "value") : prop;
        target.setTextContent(value);
        if (target != prop) {
            Element saved = child(prop, "savedValue");
            if (saved != null) {
                saved.setTextContent(value);
            }
        }
    }

    /** A property by name: most are saved with a name attribute, doubleProp with a name child. */
    static Element prop(Element e, String field) {
        Element p = JmxTree.prop(e, field);
        if (p != null) {
            return p;
        }
        for (Element c : JmxTree.elements(e)) {
            if (c.getTagName().endsWith("Prop") && field.equals(JmxTree.text(child(c, "name")))) {
                return c;
            }
        }
        return null;
    }

    private static Element child(Element e, String tag) {
        return JmxTree.elements(e).stream().filter(c -> c.getTagName().equals(tag)).findFirst().orElse(null);
    }

    private ShareRefusal refuse(JmxTree.Entry e, String reason) {
        return new ShareRefusal(file + ": " + describe(e) + " cannot be divided into " + share.count() + " shares: "
                + reason);
    }

    private static String describe(JmxTree.Entry e) {
        return e.type().substring(e.type().lastIndexOf('.') + 1) + " '" + e.name() + "'";
    }
}
