/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.results;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of a JMeter CSV JTL: comma-delimited, fields quoted with '"' when they hold a comma or quote. Public
 * for the integration tests, which read JTLs the same way.
 */
public final class CsvLine {

    private CsvLine() {}

    public static List<String> split(String line) {
        List<String> fields = new ArrayList<>(24);
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }

    /**
     * True when the text holds an odd number of quotes: a row that ends with such a line goes on to the next one
     * (a quoted field holds a newline). Escaped quotes come in pairs, so they do not change the parity.
     */
    public static boolean oddQuotes(String text) {
        boolean odd = false;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '"') {
                odd = !odd;
            }
        }
        return odd;
    }
}
