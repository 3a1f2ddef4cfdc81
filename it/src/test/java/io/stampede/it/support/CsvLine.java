/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.it.support;

import java.util.ArrayList;
import java.util.List;

/** Splits one CSV record as JMeter writes it: comma-separated, fields quoted when they hold ", or a line break. */
final class CsvLine {

    private CsvLine() {
    }

    static boolean hasOpenQuote(String line) {
        int quotes = 0;
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '"') {
                quotes++;
            }
        }
        return quotes % 2 != 0;
    }

    static List<String> split(String line) {
        List<String> fields = new ArrayList<>();
        if (line.indexOf('"') < 0) {
            int start = 0;
            for (int comma; (comma = line.indexOf(',', start)) >= 0; start = comma + 1) {
                fields.add(line.substring(start, comma));
            }
            fields.add(line.substring(start));
            return fields;
        }
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
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
}
