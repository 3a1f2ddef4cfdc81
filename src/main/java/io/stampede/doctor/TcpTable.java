/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * Counts TIME_WAIT sockets from /proc/net/tcp and /proc/net/tcp6 (state 06), like {@code ss -tan state time-wait}.
 *
 * <p>Java opens IPv6 sockets by default, so connections to an IPv4 target usually show up in tcp6 as
 * ::ffff:a.b.c.d; those are mapped back to IPv4 before comparing with the target.
 */
public final class TcpTable {

    private static final String TIME_WAIT = "06";

    private final SystemFiles files;

    public TcpTable(SystemFiles files) {
        this.files = files;
    }

    /** TIME_WAIT now; toTarget is 0 when there is no target. */
    public TimeWaitCount timeWait(Optional<Target> target) {
        long total = 0;
        long toTarget = 0;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            String text = files.read(table).orElse("");
            for (String line : text.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 4 || !f[3].equals(TIME_WAIT) || !f[0].endsWith(":")) {
                    continue;
                }
                total++;
                if (target.isPresent() && matches(f[2], target.get())) {
                    toTarget++;
                }
            }
        }
        return new TimeWaitCount(total, toTarget);
    }

    private static boolean matches(String remote, Target target) {
        int colon = remote.indexOf(':');
        if (colon < 0 || Integer.parseInt(remote.substring(colon + 1), 16) != target.port()) {
            return false;
        }
        InetAddress address = address(remote.substring(0, colon));
        return address != null && target.addresses().contains(address);
    }

    /** The kernel prints each 32-bit word of the address in host byte order. */
    static InetAddress address(String hex) {
        if (hex.length() != 8 && hex.length() != 32) {
            return null;
        }
        byte[] bytes = new byte[hex.length() / 2];
        boolean little = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
        for (int word = 0; word < bytes.length / 4; word++) {
            long v = Long.parseLong(hex.substring(word * 8, word * 8 + 8), 16);
            for (int i = 0; i < 4; i++) {
                int shift = little ? 8 * i : 8 * (3 - i);
                bytes[word * 4 + i] = (byte) (v >>> shift);
            }
        }
        try {
            // getByAddress turns ::ffff:a.b.c.d into an Inet4Address.
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
