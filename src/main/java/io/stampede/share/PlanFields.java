/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.share;

import io.stampede.plan.JmxTree;
import io.stampede.plan.PlanException;
import io.stampede.plan.PropertyResolver;
import java.math.BigDecimal;
import java.util.Map;
import org.w3c.dom.Element;

/**
 * The figures of a plan's elements as JMeter will read them: each field evaluated now with the -J properties and the
 * test plan's variables, read as a whole number or a decimal, and written back as this share's part. A figure that
 * cannot be known before the run, or is not a number, is refused naming the element, so no share is written from a
 * guess.
 */
final class PlanFields {
    private final String file;
    private final int shares;
    private PropertyResolver resolver;

    /** @param shares how many shares the plan is divided into, for the refusals' wording */
    PlanFields(String file, Map<String, String> properties, int shares) {
        this.file = file;
        this.shares = shares;
        this.resolver = new PropertyResolver(file, properties);
    }

    /** From here on the fields also see the variables the test plan {@code testPlan} defines, as JMeter's do. */
    void readVariablesOf(JmxTree.Entry testPlan) {
        try {
            resolver = resolver.withVariablesOf(testPlan.element(), false);
        } catch (PlanException ex) {
            throw refuse(testPlan, ex.getMessage());
        }
    }

    long number(JmxTree.Entry e, String field) {
        return number(e, e.element(), field);
    }

    /** @param holder where the field is: {@code e} itself, or one of the elements under it */
    long number(JmxTree.Entry e, Element holder, String field) {
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

    BigDecimal decimal(JmxTree.Entry e, Element holder, String field) {
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
    String value(JmxTree.Entry e, Element holder, String field) {
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

    static void write(Element prop, String value) {
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

    ShareRefusal refuse(JmxTree.Entry e, String reason) {
        return new ShareRefusal(file + ": " + describe(e) + " cannot be divided into " + shares + " shares: " + reason);
    }

    static String describe(JmxTree.Entry e) {
        return e.type().substring(e.type().lastIndexOf('.') + 1) + " '" + e.name() + "'";
    }
}
