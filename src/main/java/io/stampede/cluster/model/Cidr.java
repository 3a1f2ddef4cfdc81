/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.model;

/** An IPv4 network such as 10.77.0.0/24: the one L2 segment that DR needs directors and realservers on. */
public record Cidr(Ipv4 network, int prefix) {

    /** Returns the network, or null when the text is not ADDRESS/PREFIX with a prefix of 8 to 30. */
    public static Cidr parse(String text) {
        if (text == null) {
            return null;
        }
        int slash = text.indexOf('/');
        if (slash < 0) {
            return null;
        }
        Ipv4 address = Ipv4.parse(text.substring(0, slash));
        String prefixText = text.substring(slash + 1).trim();
        if (address == null || prefixText.isEmpty() || prefixText.length() > 2
                || !prefixText.chars().allMatch(Character::isDigit)) {
            return null;
        }
        int prefix = Integer.parseInt(prefixText);
        if (prefix < 8 || prefix > 30) {
            return null;
        }
        return new Cidr(new Ipv4(address.bits() & mask(prefix)), prefix);
    }

    public static Cidr around(Ipv4 address, int prefix) {
        return new Cidr(new Ipv4(address.bits() & mask(prefix)), prefix);
    }

    private static int mask(int prefix) {
        return prefix == 0 ? 0 : -1 << (32 - prefix);
    }

    public boolean contains(Ipv4 address) {
        return (address.bits() & mask(prefix)) == network.bits();
    }

    /** True for the network and broadcast addresses, which no host may use. */
    public boolean isReserved(Ipv4 address) {
        int host = address.bits() & ~mask(prefix);
        return host == 0 || host == ~mask(prefix);
    }

    @Override
    public String toString() {
        return network + "/" + prefix;
    }
}
