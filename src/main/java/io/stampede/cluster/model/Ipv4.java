/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** An IPv4 address in dotted-quad form; parsing is strict so that typos are refused, not guessed. */
public record Ipv4(int bits) implements Comparable<Ipv4> {

    public static final Ipv4 LOOPBACK = new Ipv4(0x7f000001);

    /** Returns the address, or null when the text is not exactly four decimal octets 0-255. */
    public static Ipv4 parse(String text) {
        if (text == null) {
            return null;
        }
        String[] parts = text.trim().split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        int bits = 0;
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)
                    || (part.length() > 1 && part.charAt(0) == '0')) {
                return null;
            }
            int octet = Integer.parseInt(part);
            if (octet > 255) {
                return null;
            }
            bits = (bits << 8) | octet;
        }
        return new Ipv4(bits);
    }

    public Ipv4 plus(int offset) {
        return new Ipv4(bits + offset);
    }

    @Override
    public int compareTo(Ipv4 other) {
        return Integer.compareUnsigned(bits, other.bits);
    }

    @Override
    public String toString() {
        return ((bits >>> 24) & 255) + "." + ((bits >>> 16) & 255) + "." + ((bits >>> 8) & 255) + "." + (bits & 255);
    }
}
