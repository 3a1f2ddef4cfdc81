/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.plugins;

import java.util.Comparator;

/**
 * Orders library versions the way their numbers read: 2.15.1 after 2.5, 1.0.b2 before 1.3.03. Numeric parts compare
 * as numbers, others as text, a missing part counts as 0; close enough to Maven's order for the versions of JMeter's
 * libraries and plugins.
 */
public final class Versions {

    public static final Comparator<String> ORDER = Versions::compare;

    private Versions() {}

    public static int compare(String a, String b) {
        String[] x = a.split("[.\\-_]");
        String[] y = b.split("[.\\-_]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String p = i < x.length ? x[i] : "0";
            String q = i < y.length ? y[i] : "0";
            int c;
            if (p.matches("\\d+") && q.matches("\\d+")) {
                c = Long.compare(Long.parseLong(p), Long.parseLong(q));
            } else if (p.matches("\\d+")) {
                c = 1; // 1.0 after 1.0-beta: a number ranks above a qualifier
            } else if (q.matches("\\d+")) {
                c = -1;
            } else {
                c = p.compareTo(q);
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** The first number of a version: libraries change their API across it. */
    public static String major(String version) {
        String[] p = version.split("[.\\-_]");
        return p[0];
    }
}
