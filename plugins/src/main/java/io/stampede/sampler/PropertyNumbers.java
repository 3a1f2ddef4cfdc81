/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

/** Numbers in a sampler's fields, read with one wording for every field: the name, the range and the default. */
public final class PropertyNumbers {

    private PropertyNumbers() {}

    /**
     * A whole number from {@code min} to {@code max}; empty means {@code dflt}.
     *
     * @throws IllegalArgumentException naming the field, the range and the default
     */
    public static int whole(String name, String value, int dflt, int min, int max) {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            return dflt;
        }
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + v + "' is not a whole number; enter one between "
                    + min + " and " + max + " (or leave it empty for " + dflt + ")");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(name + ": " + n + " is out of range; enter one between " + min
                    + " and " + max + " (or leave it empty for " + dflt + ")");
        }
        return n;
    }

    /**
     * Requests per second, 0 (or empty) for none.
     *
     * @throws IllegalArgumentException naming the field and an example
     */
    static double rate(String name, String value) {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            return 0;
        }
        try {
            double d = Double.parseDouble(v);
            if (d >= 0 && d <= 1e9) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + ": '" + v + "' is not a rate; enter requests per second such as "
                + "250 or 0.5 (or leave it empty for none)");
    }
}
