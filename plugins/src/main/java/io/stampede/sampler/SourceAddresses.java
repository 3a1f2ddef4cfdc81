/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.sampler;

import io.stampede.names.PluginNames;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * The local addresses connections are opened from (property stampede.source_addresses): a list of addresses, IPv4
 * ranges ({@code 10.0.0.1-10.0.0.20} or {@code 10.0.0.1-20}) and IPv4 CIDR blocks ({@code 10.0.1.0/28}: its hosts,
 * without the network and broadcast addresses), separated by commas, spaces or new lines. Immutable.
 */
public record SourceAddresses(List<InetAddress> addresses) {
    /** More addresses than this is a typo (a /8), not a plan. */
    static final int MAX = 65536;

    public SourceAddresses {
        addresses = List.copyOf(addresses);
    }

    /** @throws IllegalArgumentException naming the property and the fix */
    public static SourceAddresses parse(String text) {
        List<InetAddress> out = new ArrayList<>();
        for (String item : text.trim().split("[,\\s]+")) {
            if (item.isEmpty()) {
                continue;
            }
            int slash = item.indexOf('/');
            int dash = item.indexOf('-');
            if (slash > 0) {
                cidr(item, slash, out);
            } else if (dash > 0) {
                range(item, dash, out);
            } else {
                out.add(literal(item));
            }
            if (out.size() > MAX) {
                throw new IllegalArgumentException(PluginNames.SOURCE_ADDRESSES + ": more than " + MAX + " addresses; give a smaller "
                        + "range or CIDR block");
            }
        }
        return new SourceAddresses(out);
    }

    public boolean isEmpty() {
        return addresses.isEmpty();
    }

    private static void cidr(String item, int slash, List<InetAddress> out) {
        long base = ipv4(item, item.substring(0, slash));
        int bits;
        try {
            bits = Integer.parseInt(item.substring(slash + 1));
        } catch (NumberFormatException e) {
            bits = -1;
        }
        if (bits < 0 || bits > 32) {
            throw new IllegalArgumentException(PluginNames.SOURCE_ADDRESSES + ": '" + item + "' has no valid prefix length; write e.g. "
                    + "10.0.1.0/28");
        }
        if (32 - bits > 16) {
            throw new IllegalArgumentException(PluginNames.SOURCE_ADDRESSES + ": '" + item + "' holds more than " + MAX
                    + " addresses; use a /16 or longer prefix");
        }
        long size = 1L << (32 - bits);
        long first = base & ~(size - 1);
        long from = size > 2 ? first + 1 : first;
        long to = size > 2 ? first + size - 2 : first + size - 1;
        for (long a = from; a <= to; a++) {
            out.add(address(a));
        }
    }

    private static void range(String item, int dash, List<InetAddress> out) {
        String left = item.substring(0, dash);
        String right = item.substring(dash + 1);
        long from = ipv4(item, left);
        long to = right.contains(".") ? ipv4(item, right) : (from & ~0xffL) | octet(item, right);
        if (to < from || to - from >= MAX) {
            throw new IllegalArgumentException(PluginNames.SOURCE_ADDRESSES + ": '" + item + "' is not a range of 1 to " + MAX
                    + " addresses; write e.g. 10.0.0.1-10.0.0.20 or 10.0.0.1-20");
        }
        for (long a = from; a <= to; a++) {
            out.add(address(a));
        }
    }

    private static long ipv4(String item, String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException(PluginNames.SOURCE_ADDRESSES + ": '" + item + "': ranges and CIDR blocks take IPv4 "
                    + "addresses such as 10.0.0.1");
        }
        long v = 0;
        for (String p : parts) {
            v = v << 8 | octet(item, p);
        }
        return v;
    }

    private static int octet(String item, String text) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 0 && n <= 255) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(PluginNames.SOURCE_ADDRESSES + ": '" + item + "': '" + text + "' is not a number 0-255");
    }

    private static InetAddress literal(String item) {
        if (!item.matches("[0-9a-fA-F:.%]+")) {
            throw new IllegalArgumentException(PluginNames.SOURCE_ADDRESSES + ": '" + item + "' is not an IP address; give addresses, "
                    + "ranges (10.0.0.1-20) or CIDR blocks (10.0.1.0/28), not host names");
        }
        try {
            return InetAddress.getByName(item);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(PluginNames.SOURCE_ADDRESSES + ": '" + item + "' is not an IP address");
        }
    }

    private static InetAddress address(long v) {
        byte[] b = {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        try {
            return Inet4Address.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always an address
        }
    }
}
