/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.httprequest;

import java.util.ArrayList;
import java.util.List;

/**
 * Header fields in wire order, a request's or a response's, with HttpClient 4's message semantics (stock JMeter's):
 * {@link #set} replaces the first field of that name in place and drops the others, {@link #add} appends. Names
 * compare case-insensitively.
 */
final class HeaderFields {
    private final List<String> names = new ArrayList<>(12);
    private final List<String> values = new ArrayList<>(12);

    HeaderFields copy() {
        HeaderFields c = new HeaderFields();
        c.names.addAll(names);
        c.values.addAll(values);
        return c;
    }

    void add(String name, String value) {
        names.add(name);
        values.add(value);
    }

    void set(String name, String value) {
        int first = indexOf(name);
        if (first < 0) {
            add(name, value);
            return;
        }
        names.set(first, name);
        values.set(first, value);
        for (int i = names.size() - 1; i > first; i--) {
            if (names.get(i).equalsIgnoreCase(name)) {
                names.remove(i);
                values.remove(i);
            }
        }
    }

    void remove(String name) {
        for (int i = names.size() - 1; i >= 0; i--) {
            if (names.get(i).equalsIgnoreCase(name)) {
                names.remove(i);
                values.remove(i);
            }
        }
    }

    boolean contains(String name) {
        return indexOf(name) >= 0;
    }

    /** The first value of {@code name}, or null. */
    String first(String name) {
        int i = indexOf(name);
        return i < 0 ? null : values.get(i);
    }

    /** The last value of {@code name} (as HttpClient 4's getLastHeader), or null. */
    String last(String name) {
        for (int i = names.size() - 1; i >= 0; i--) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return values.get(i);
            }
        }
        return null;
    }

    /** Every value of {@code name}, in order. */
    List<String> all(String name) {
        List<String> out = new ArrayList<>(2);
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                out.add(values.get(i));
            }
        }
        return out;
    }

    int size() {
        return names.size();
    }

    String name(int i) {
        return names.get(i);
    }

    String value(int i) {
        return values.get(i);
    }

    private int indexOf(String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** "Name: value\n" per field, as JMeter shows request headers; the Cookie field left out when asked. */
    String text(boolean withCookie) {
        StringBuilder b = new StringBuilder(32 * names.size() + 1);
        for (int i = 0; i < names.size(); i++) {
            if (withCookie || !names.get(i).equalsIgnoreCase("Cookie")) {
                b.append(names.get(i)).append(": ").append(values.get(i)).append('\n');
            }
        }
        return b.toString();
    }
}
