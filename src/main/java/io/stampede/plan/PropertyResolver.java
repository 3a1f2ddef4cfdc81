/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.w3c.dom.Element;

/**
 * Evaluates what a plan's fields hold before JMeter runs: {@code ${__P(name,default)}},
 * {@code ${__property(name,,default)}} with the -J properties, and {@code ${variable}} with the test plan's user
 * defined variables. Anything else is refused with the fix, since guessing would make the estimate wrong.
 */
public final class PropertyResolver {

    private static final Pattern PROPERTY_FUNCTION =
            Pattern.compile("\\$\\{__(P|property)\\(\\s*([^,()]+?)\\s*(?:,([^,()]*))?(?:,([^()]*))?\\)\\}");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_.-]*)\\}");

    private final String file;
    private final Map<String, String> properties;
    private final Map<String, String> variables;

    /**
     * @param file the plan's file name, for messages
     * @param properties JMeter properties given with -J name=value
     */
    public PropertyResolver(String file, Map<String, String> properties) {
        this(file, Map.copyOf(properties), Map.of());
    }

    private PropertyResolver(String file, Map<String, String> properties, Map<String, String> variables) {
        this.file = file;
        this.properties = properties;
        this.variables = variables;
    }

    /** This resolver with one more user defined variable. */
    private PropertyResolver withVariable(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(variables);
        more.put(name, value);
        return new PropertyResolver(file, properties, Map.copyOf(more));
    }

    /**
     * This resolver with the test plan's user defined variables, each resolved with the ones before it.
     *
     * @param strict true to refuse a variable whose value cannot be known before the run; false to leave it out, so
     *     that only a field using it cannot be known
     * @throws PlanException when strict, naming the variable and the fix
     */
    public PropertyResolver withVariablesOf(Element testPlan, boolean strict) throws PlanException {
        Element args = JmxTree.prop(testPlan, "TestPlan.user_defined_variables");
        Element list = args == null ? null : JmxTree.prop(args, "Arguments.arguments");
        PropertyResolver out = this;
        if (list == null) {
            return out;
        }
        for (Element arg : JmxTree.elements(list)) {
            String name = JmxTree.text(JmxTree.prop(arg, "Argument.name"));
            if (name == null || name.isBlank()) {
                continue;
            }
            try {
                out = out.withVariable(name.trim(), out.resolve(JmxTree.text(JmxTree.prop(arg, "Argument.value")),
                        "user defined variable " + name));
            } catch (PlanException e) {
                if (strict) {
                    throw e;
                }
            }
        }
        return out;
    }

    /**
     * The value with every property function and variable replaced.
     *
     * @param where the element and field, for the message
     * @throws PlanException naming the field and the fix when a value cannot be known before the run
     */
    public String resolve(String raw, String where) throws PlanException {
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
            throw new PlanException(file + ": " + where + " = '" + raw + "' uses a function that Stampede cannot"
                    + " evaluate before the run; write the number, use ${__P(name,default)} with -J, or give"
                    + " --connections/--rate");
        }
        return done.toString();
    }
}
