/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Strict view of one YAML mapping: every key read is remembered, so that {@link #finish()} can refuse the keys
 * nobody asked for (a typo such as {@code schedular} must not silently fall back to a default).
 */
final class Fields {

    private final String path;
    private final Map<?, ?> map;
    private final Problems problems;
    private final Set<String> known = new LinkedHashSet<>();

    Fields(String path, Map<?, ?> map, Problems problems) {
        this.path = path;
        this.map = map;
        this.problems = problems;
    }

    /** Wraps a value expected to be a mapping; records a problem and returns an empty view otherwise. */
    static Fields of(String path, Object value, Problems problems) {
        if (value instanceof Map<?, ?> m) {
            return new Fields(path, m, problems);
        }
        if (value != null) {
            problems.add(path, "expected a mapping (key: value lines), got " + describe(value),
                    "write " + path + " as indented key: value pairs");
        }
        return new Fields(path, Map.of(), problems);
    }

    String field(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    Problems problems() {
        return problems;
    }

    boolean has(String key) {
        known.add(key);
        return map.get(key) != null;
    }

    Object raw(String key) {
        known.add(key);
        return map.get(key);
    }

    String string(String key, String fallback) {
        Object v = raw(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof String || v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        problems.add(field(key), "expected a single value, got " + describe(v), "write " + key + ": <value>");
        return fallback;
    }

    String requiredString(String key, String example) {
        String v = string(key, null);
        if (v == null && !map.containsKey(key)) {
            problems.add(field(key), "is missing", "add " + key + ": " + example);
        } else if (v == null) {
            problems.add(field(key), "is empty", "give it a value, e.g. " + key + ": " + example);
        }
        return v;
    }

    int integer(String key, int fallback, int min, int max) {
        Object v = raw(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Integer i && i >= min && i <= max) {
            return i;
        }
        problems.add(field(key), "must be a whole number from " + min + " to " + max + ", got " + describe(v),
                "write " + key + ": <number in " + min + ".." + max + ">");
        return fallback;
    }

    boolean bool(String key, boolean fallback) {
        Object v = raw(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        problems.add(field(key), "must be true or false, got " + describe(v), "write " + key + ": true|false");
        return fallback;
    }

    Ipv4 address(String key, boolean required) {
        String text = required ? requiredString(key, "10.0.0.10") : string(key, null);
        if (text == null) {
            return null;
        }
        Ipv4 ip = Ipv4.parse(text);
        if (ip == null) {
            problems.add(field(key), "'" + text + "' is not an IPv4 address",
                    "write four numbers 0-255 separated by dots, e.g. 10.0.0.10");
        }
        return ip;
    }

    <E extends Enum<E>> E choice(String key, E fallback, Class<E> type, Function<String, E> parse) {
        String text = string(key, null);
        if (text == null) {
            return fallback;
        }
        E value = parse.apply(text);
        if (value == null) {
            List<String> names = new ArrayList<>();
            for (E e : type.getEnumConstants()) {
                names.add(e.toString());
            }
            problems.add(field(key), "unknown value '" + text + "'", "use one of " + String.join(", ", names));
            return fallback;
        }
        return value;
    }

    Fields child(String key) {
        return of(field(key), raw(key), problems);
    }

    /** The list under key, each element handed to the reader with its indexed path; empty when absent. */
    <T> List<T> list(String key, Function<Fields, T> reader) {
        Object v = raw(key);
        List<T> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (!(v instanceof List<?> items)) {
            problems.add(field(key), "expected a list (lines starting with '- '), got " + describe(v),
                    "write each entry of " + key + " on its own '- ' line");
            return out;
        }
        for (int i = 0; i < items.size(); i++) {
            Fields f = of(field(key) + "[" + i + "]", items.get(i), problems);
            out.add(reader.apply(f));
            f.finish();
        }
        return out;
    }

    /** Refuses every key that was present but never read. */
    void finish() {
        for (Object k : map.keySet()) {
            if (!known.contains(String.valueOf(k))) {
                problems.add(field(String.valueOf(k)), "unknown key",
                        "remove it or use one of: " + String.join(", ", known));
            }
        }
    }

    static String describe(Object v) {
        if (v instanceof Map<?, ?>) {
            return "a mapping";
        }
        if (v instanceof List<?>) {
            return "a list";
        }
        return "'" + v + "'";
    }
}
