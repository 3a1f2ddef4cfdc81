/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Every class and function a .jmx names, with the element that names it and the line, read as XML in one pass
 * (JMeter's classes are not needed), and the same for each plan an Include Controller pulls in. Disabled elements
 * count: JMeter loads their classes too.
 */
public final class PlanReferences {

    /** What a reference names. */
    public enum Kind {
        /** A test element's class (its tag, testclass or elementType, or a value's class attribute). */
        ELEMENT,
        /** The editor class JMeter's GUI opens it with. */
        GUI,
        /** A function call, {@code ${__name(...)}}. */
        FUNCTION
    }

    /**
     * One name in a plan.
     *
     * @param name a class name or alias as written, or a function's {@code __name}
     * @param element the testname of the element it is part of ("" when none)
     */
    public record Reference(Path file, int line, String element, Kind kind, String name) {}

    private static final Pattern FUNCTION = Pattern.compile("\\$\\{(__[A-Za-z0-9_.]+)\\s*[(}]");
    private static final String INCLUDE_PATH = "IncludeController.includepath";

    private PlanReferences() {}

    /** The references of a plan and of the plans it includes (each file once). */
    public static List<Reference> of(Path plan) throws IOException {
        List<Reference> out = new ArrayList<>();
        Set<Path> seen = new LinkedHashSet<>();
        Deque<Path> todo = new ArrayDeque<>(List.of(plan.toAbsolutePath().normalize()));
        Path base = plan.toAbsolutePath().normalize().getParent();
        while (!todo.isEmpty()) {
            Path file = todo.poll();
            if (!seen.add(file) || !Files.isRegularFile(file)) {
                continue; // JMeter itself reports an include it cannot find
            }
            Handler h = new Handler(file);
            parse(file, h);
            out.addAll(h.references);
            for (String include : h.includes) {
                Path p = Path.of(include);
                // JMeter resolves a relative include against the main plan's folder
                todo.add((p.isAbsolute() ? p : base.resolve(p)).normalize());
            }
        }
        return out;
    }

    private static void parse(Path file, Handler handler) throws IOException {
        try {
            SAXParserFactory factory = SAXParserFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            SAXParser parser = factory.newSAXParser();
            parser.parse(file.toFile(), handler);
        } catch (SAXException e) {
            throw new PluginException(file.getFileName() + " is not valid XML (" + e.getMessage()
                    + "); open it in JMeter's GUI and save it again");
        } catch (ParserConfigurationException e) {
            throw new IOException(e);
        }
    }

    private static final class Handler extends DefaultHandler {
        private final Path file;
        private final List<Reference> references = new ArrayList<>();
        private final List<String> includes = new ArrayList<>();
        private final Deque<String> tags = new ArrayDeque<>();
        private final Deque<String> names = new ArrayDeque<>();
        private final StringBuilder text = new StringBuilder();
        private Locator locator;
        private int textLine;
        private boolean includePath;

        Handler(Path file) {
            this.file = file;
        }

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
        }

        @Override
        public void startElement(String uri, String local, String tag, Attributes a) {
            flushText();
            int line = locator.getLineNumber();
            boolean testElement = "hashTree".equals(tags.peek()) && !"hashTree".equals(tag);
            String name = a.getValue("testname");
            if (testElement) {
                names.push(name == null ? "" : name);
                add(line, Kind.ELEMENT, tag);
            } else {
                names.push(names.isEmpty() ? "" : names.peek());
            }
            String element = names.peek();
            addAttribute(line, element, Kind.ELEMENT, a.getValue("testclass"));
            addAttribute(line, element, Kind.GUI, a.getValue("guiclass"));
            addAttribute(line, element, Kind.ELEMENT, a.getValue("elementType"));
            addAttribute(line, element, Kind.ELEMENT, a.getValue("class"));
            if (name != null) {
                text.append(name); // JMeter resolves functions in element names too
                textLine = line;
                flushText();
            }
            includePath = "stringProp".equals(tag) && INCLUDE_PATH.equals(a.getValue("name"));
            tags.push(tag);
            textLine = line;
        }

        @Override
        public void endElement(String uri, String local, String tag) {
            if (includePath && !text.toString().isBlank()) {
                includes.add(text.toString().trim());
            }
            includePath = false;
            flushText();
            tags.pop();
            names.pop();
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            text.append(ch, start, length);
        }

        private void flushText() {
            if (text.indexOf("${__") >= 0) {
                Matcher m = FUNCTION.matcher(text);
                while (m.find()) {
                    references.add(new Reference(file, textLine, names.isEmpty() ? "" : names.peek(), Kind.FUNCTION,
                            m.group(1)));
                }
            }
            text.setLength(0);
        }

        private void add(int line, Kind kind, String name) {
            references.add(new Reference(file, line, names.peek(), kind, name));
        }

        private void addAttribute(int line, String element, Kind kind, String value) {
            if (value != null && !value.isBlank()) {
                references.add(new Reference(file, line, element, kind, value.trim()));
            }
        }
    }
}
