/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.w3c.dom.Document;

/**
 * Rewrites a plan's HTTP Requests from one engine's class to the other's, in the text as saved: only each such
 * element's name, testclass and guiclass change, so every property, comment and byte of layout stays as the user
 * (or JMeter's GUI) wrote it, and converting there and back gives the original file.
 */
public final class HttpRequestConversion {

    /** The converted plan and how many HTTP Requests were switched. */
    public record Result(String text, int converted) {}

    // An attribute value may hold '>' (XML allows it there), so quoted values are skipped whole.
    private static final String ATTRIBUTES = "((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)";

    private HttpRequestConversion() {}

    /** How many HTTP Requests the plan saves for {@code engine}, enabled or not, at any depth. */
    public static int count(JmxTree plan, HttpRequestEngine engine) {
        Document doc = plan.top().getOwnerDocument();
        int n = 0;
        for (String form : engine.classForms()) {
            n += doc.getElementsByTagName(form).getLength();
        }
        return n;
    }

    /**
     * The plan with every HTTP Request of the other engine saved as {@code to}'s.
     *
     * @throws PlanException when the text holds such an element in a form this rewrite does not recognise (the
     *     parsed plan and the text disagree on their number), so nothing half-converted is ever written
     */
    public static Result convert(JmxTree plan, HttpRequestEngine to) throws PlanException {
        HttpRequestEngine from = to.other();
        String names = from.classForms().stream().map(Pattern::quote).collect(Collectors.joining("|"));
        Pattern start = Pattern.compile("<(" + names + ")(?=[\\s/>])" + ATTRIBUTES + "(/?)>");
        Pattern end = Pattern.compile("</(" + names + ")\\s*>");
        Matcher m = start.matcher(plan.text());
        StringBuilder out = new StringBuilder(plan.text().length() + 256);
        int converted = 0;
        while (m.find()) {
            String attributes = attribute(m.group(2), "testclass", from.classForms(), to.savedClass());
            attributes = attribute(attributes, "guiclass", Set.copyOf(from.guiForms()), to.savedGui());
            m.appendReplacement(out, Matcher.quoteReplacement("<" + to.savedClass() + attributes + m.group(3) + ">"));
            converted++;
        }
        m.appendTail(out);
        int expected = count(plan, from);
        if (converted != expected) {
            throw new PlanException(plan.fileName() + ": " + expected + " HTTP Requests (" + from.savedClass()
                    + ") in the plan, but " + converted + " in a form this conversion rewrites; open the plan in"
                    + " JMeter's GUI and save it again, then convert the saved file");
        }
        String text = end.matcher(out).replaceAll(Matcher.quoteReplacement("</" + to.savedClass() + ">"));
        return new Result(text, converted);
    }

    private static String attribute(String attributes, String name, Set<String> from, String to) {
        Matcher m = Pattern.compile("(\\s" + name + "\\s*=\\s*)([\"'])([^\"']*)\\2").matcher(attributes);
        if (!m.find() || !from.contains(m.group(3))) {
            return attributes;
        }
        return attributes.substring(0, m.start(3)) + to + attributes.substring(m.end(3));
    }
}
