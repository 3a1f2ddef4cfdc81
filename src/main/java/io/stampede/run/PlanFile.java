/*
 * Licensed under the Apache License, Version 2.0.
 */
package io.stampede.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;

/** A .jmx plan checked before JMeter is started, so a wrong path or a broken file fails fast and clearly. */
record PlanFile(Path path, String text) {

    static PlanFile read(Path path) {
        if (!Files.exists(path)) {
            throw new RunInputException("PLAN " + path + " does not exist: give the path of a .jmx file, e.g. "
                    + "plans/quickstart.jmx");
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new RunInputException("PLAN " + path + " is not a readable file: give the path of a .jmx file");
        }
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new RunInputException("PLAN " + path + " cannot be read: " + e.getMessage());
        }
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = f.newDocumentBuilder().parse(path.toFile());
            String root = doc.getDocumentElement().getTagName();
            if (!"jmeterTestPlan".equals(root)) {
                throw new RunInputException("PLAN " + path + " is not a JMeter plan: its root element is <" + root
                        + ">, expected <jmeterTestPlan>; save the plan from JMeter's GUI as .jmx");
            }
        } catch (SAXException e) {
            throw new RunInputException("PLAN " + path + " is not valid XML (" + e.getMessage()
                    + "); open it in JMeter's GUI and save it again");
        } catch (ParserConfigurationException | IOException e) {
            throw new RunInputException("PLAN " + path + " cannot be parsed: " + e.getMessage());
        }
        return new PlanFile(path.toAbsolutePath().normalize(), text);
    }

    /** True when the plan reads JMeter property {@code name} (e.g. {@code ${__P(host,…)}}). */
    boolean readsProperty(String name) {
        return text.contains("__P(" + name + ",") || text.contains("__P(" + name + ")")
                || text.contains("__property(" + name);
    }

    /** True when the plan holds a Stampede Virtual User Thread Group, whose users need Java 21+. */
    boolean hasVirtualUsers() {
        return text.contains("io.stampede.threads.VirtualUserThreadGroup");
    }

    String name() {
        String n = path.getFileName().toString();
        return n.endsWith(".jmx") ? n.substring(0, n.length() - 4) : n;
    }
}
