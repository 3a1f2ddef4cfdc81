/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plan;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * A .jmx plan read once as XML (no JMeter classes needed): JMeter saves a plan as pairs of an element and the
 * {@code <hashTree>} of its children. {@code stampede run} and {@code stampede doctor} both read plans through it.
 */
public final class JmxTree {

    private final Path path;
    private final String text;
    private final Element top;

    private JmxTree(Path path, String text, Element top) {
        this.path = path;
        this.text = text;
        this.top = top;
    }

    /** One enabled element of the plan with its children's {@code <hashTree>} (null when it has none). */
    public record Entry(Element element, Element children) {

        /** JMeter's testclass attribute, or the tag name of elements saved without one. */
        public String type() {
            String testClass = element.getAttribute("testclass");
            return testClass.isEmpty() ? element.getTagName() : testClass;
        }

        public String name() {
            return element.getAttribute("testname");
        }
    }

    /**
     * Reads and parses the plan.
     *
     * @throws PlanException naming the file and the fix when it is missing, unreadable, not XML or not a plan
     */
    public static JmxTree parse(Path path) throws PlanException {
        if (!Files.exists(path)) {
            throw new PlanException(path + " does not exist: give the path of a .jmx file, e.g. plans/quickstart.jmx");
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new PlanException(path + " is not a readable file: give the path of a .jmx file");
        }
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new PlanException(path + " cannot be read: " + e.getMessage());
        }
        Element root;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(null);
            root = builder.parse(new InputSource(new StringReader(text))).getDocumentElement();
        } catch (SAXException e) {
            throw new PlanException(path + " is not valid XML (" + e.getMessage()
                    + "); open it in JMeter's GUI and save it again");
        } catch (IOException | ParserConfigurationException e) {
            throw new PlanException(path + " cannot be parsed: " + e.getMessage());
        }
        String file = path.getFileName().toString();
        if (!"jmeterTestPlan".equals(root.getTagName())) {
            throw new PlanException(file + ": not a JMeter plan: its root element is <" + root.getTagName()
                    + ">, expected <jmeterTestPlan>; save the plan from JMeter's GUI as .jmx");
        }
        Element top = firstChild(root, "hashTree");
        if (top == null) {
            throw new PlanException(file + ": not a JMeter plan (no <hashTree> under <jmeterTestPlan>); save the"
                    + " plan from JMeter's GUI as .jmx");
        }
        return new JmxTree(path.toAbsolutePath().normalize(), text, top);
    }

    public Path path() {
        return path;
    }

    /** The file's name, as messages about its content name it. */
    public String fileName() {
        return path.getFileName().toString();
    }

    /** The plan as written, for checks on its text. */
    public String text() {
        return text;
    }

    /** The plan's outermost {@code <hashTree>}: the test plan element and its children. */
    public Element top() {
        return top;
    }

    /** The enabled elements of a {@code <hashTree>}, in order, each with its own children. */
    public static List<Entry> children(Element hashTree) {
        List<Element> all = elements(hashTree);
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Element e = all.get(i);
            if (e.getTagName().equals("hashTree") || "false".equals(e.getAttribute("enabled"))) {
                continue;
            }
            Element sub = i + 1 < all.size() && all.get(i + 1).getTagName().equals("hashTree") ? all.get(i + 1) : null;
            out.add(new Entry(e, sub));
        }
        return out;
    }

    /** A direct child property (stringProp, boolProp, elementProp ...) with name="field", or null. */
    public static Element prop(Element e, String field) {
        for (Element c : elements(e)) {
            if (c.getTagName().endsWith("Prop") && field.equals(c.getAttribute("name"))) {
                return c;
            }
        }
        return null;
    }

    /** The text of a property as written, before any function or variable in it is resolved; null for null. */
    public static String text(Element e) {
        return e == null ? null : e.getTextContent();
    }

    /** The child elements, in order. */
    public static List<Element> elements(Element e) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                out.add(c);
            }
        }
        return out;
    }

    private static Element firstChild(Element e, String tag) {
        for (Element c : elements(e)) {
            if (c.getTagName().equals(tag)) {
                return c;
            }
        }
        return null;
    }
}
