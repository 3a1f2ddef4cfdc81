/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import io.stampede.names.PluginNames;
import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Divides a plan's load into one share: reads a fresh copy of the plan and walks it, handing each element that sets
 * the load to its {@link DivisionRules rule}, which writes this share's part in its place (the figures read through
 * {@link PlanFields}, as JMeter would evaluate them); CSV Data Sets get their block of rows. Anything whose load it
 * cannot divide is refused with the reason.
 */
public final class PlanDivider {
    private final PlanFields fields;
    private final DivisionRules rules;

    private PlanDivider(ShareText share, JmxTree plan, Map<String, String> properties) {
        this.fields = new PlanFields(plan.fileName(), properties, share.count());
        this.rules = new DivisionRules(share, fields, plan.path().getParent());
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
        return new DividedPlan(plan, share, d.rules.csvShares(), d.rules.notes());
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
        leading(plan, testClass, name).ifPresent(element -> {
            Element prop = element.getOwnerDocument().createElement(propTag);
            prop.setAttribute("name", propName);
            prop.setTextContent(value);
            element.appendChild(prop);
        });
    }

    /** As above, the element without properties; empty when there is no test plan with children. */
    static Optional<Element> leading(JmxTree plan, String testClass, String name) {
        for (JmxTree.Entry entry : JmxTree.children(plan.top())) {
            if (entry.type().equals("TestPlan") && entry.children() != null) {
                Document doc = plan.top().getOwnerDocument();
                Element element = doc.createElement(testClass);
                element.setAttribute("guiclass", "TestBeanGUI");
                element.setAttribute("testclass", testClass);
                element.setAttribute("testname", name);
                element.setAttribute("enabled", "true");
                Node first = entry.children().getFirstChild();
                entry.children().insertBefore(element, first);
                entry.children().insertBefore(doc.createElement("hashTree"), first);
                return Optional.of(element);
            }
        }
        return Optional.empty();
    }

    /** In plan order, so the test plan's variables are known before any element below it reads them. */
    private void tree(Element hashTree) {
        for (JmxTree.Entry entry : JmxTree.children(hashTree)) {
            String type = entry.type();
            if (type.equals("TestPlan")) {
                fields.readVariablesOf(entry);
            } else if (type.endsWith("ThreadGroup")) {
                rules.group(entry);
            } else if (type.equals("ConstantThroughputTimer")) {
                rules.throughputTimer(entry);
            } else if (type.equals("org.apache.jmeter.timers.poissonarrivals.PreciseThroughputTimer")) {
                rules.rate(entry, "throughput");
            } else if (type.equals("SyncTimer")) {
                rules.whole(entry, "groupSize");
            } else if (type.equals("CSVDataSet")) {
                rules.csv(entry);
            } else if (type.equals("kg.apc.jmeter.timers.VariableThroughputTimer")) {
                throw fields.refuse(entry, "a Throughput Shaping Timer's schedule is not divided by Stampede; use a"
                        + " Constant Throughput Timer or an Arrivals Thread Group, or give each injector its own copy"
                        + " of the plan (with --remote: --whole-plan-per-engine, JMeter's way)");
            }
            if (entry.children() != null) {
                tree(entry.children());
            }
        }
    }
}
