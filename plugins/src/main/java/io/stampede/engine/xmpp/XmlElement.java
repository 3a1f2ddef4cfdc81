/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

import java.util.List;

/**
 * One received element, built per stanza (no DOM, no parser objects kept): its local name and namespace, its
 * attributes as name/value pairs (prefixed names as written, e.g. {@code xml:lang}), its children and its text.
 */
public final class XmlElement {
    private final String name;
    private final String ns;
    private final String[] attributes;
    private final List<XmlElement> children;
    private final String text;

    XmlElement(String name, String ns, String[] attributes, List<XmlElement> children, String text) {
        this.name = name;
        this.ns = ns;
        this.attributes = attributes;
        this.children = children;
        this.text = text;
    }

    public String name() {
        return name;
    }

    /** The namespace URI, "" when none. */
    public String ns() {
        return ns;
    }

    /** The attribute's value, or null. */
    public String attr(String attribute) {
        for (int i = 0; i < attributes.length; i += 2) {
            if (attributes[i].equals(attribute)) {
                return attributes[i + 1];
            }
        }
        return null;
    }

    public List<XmlElement> children() {
        return children;
    }

    /** The first child of that local name, or null. */
    public XmlElement child(String childName) {
        for (XmlElement c : children) {
            if (c.name.equals(childName)) {
                return c;
            }
        }
        return null;
    }

    /** The first child of that local name in that namespace, or null. */
    public XmlElement child(String childName, String childNs) {
        for (XmlElement c : children) {
            if (c.name.equals(childName) && c.ns.equals(childNs)) {
                return c;
            }
        }
        return null;
    }

    /** The text directly inside, "" when none. */
    public String text() {
        return text;
    }

    /** The text of the first child of that name, or null when there is no such child. */
    public String childText(String childName) {
        XmlElement c = child(childName);
        return c == null ? null : c.text;
    }

    /** The element as XML (namespaces declared where they change), for response data and logs. */
    public String toXml() {
        StringBuilder b = new StringBuilder(64);
        write(b, "jabber:client");
        return b.toString();
    }

    private void write(StringBuilder b, String parentNs) {
        b.append('<').append(name);
        if (!ns.equals(parentNs)) {
            b.append(" xmlns='");
            Xml.escape(ns, b);
            b.append('\'');
        }
        for (int i = 0; i < attributes.length; i += 2) {
            b.append(' ').append(attributes[i]).append("='");
            Xml.escape(attributes[i + 1], b);
            b.append('\'');
        }
        if (children.isEmpty() && text.isEmpty()) {
            b.append("/>");
            return;
        }
        b.append('>');
        Xml.escape(text, b);
        for (XmlElement c : children) {
            c.write(b, ns);
        }
        b.append("</").append(name).append('>');
    }

    @Override
    public String toString() {
        return toXml();
    }
}
