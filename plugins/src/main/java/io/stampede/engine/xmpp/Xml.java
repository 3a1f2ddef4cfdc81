/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.engine.xmpp;

/** Escaping for text and attribute values written into outgoing stanzas. */
public final class Xml {
    private Xml() {
    }

    /** {@code s} with the five XML special characters escaped. */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        escape(s, b);
        return b.toString();
    }

    static void escape(String s, StringBuilder b) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '\'' -> b.append("&apos;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
    }
}
