/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * How many new connections per second one source address can open to one destination (address, port).
 *
 * <p>Each such connection takes a local port from ip_local_port_range (minus reserved ports), and when the
 * injector closes first the port stays in TIME_WAIT for 60 s, fixed in the kernel (TCP_TIMEWAIT_LEN; not
 * tcp_fin_timeout). tcp_tw_reuse lets a new outgoing connection take over a TIME_WAIT port once it is
 * tcp_tw_reuse_delay old (1 s), provided tcp_timestamps is on; mode 2, the default, only for loopback.
 */
public record PortBudget(int low, int high, int reserved, int reuseMode, OptionalLong reuseDelayMillis,
        boolean timestamps, boolean targetLoopback) {

    /** TIME_WAIT length on Linux: TCP_TIMEWAIT_LEN = 60 s, not configurable. */
    public static final int TIME_WAIT_SECONDS = 60;

    /** Reads the range, reserved ports and reuse settings; empty when the range cannot be read. */
    static Optional<PortBudget> read(Kernel kernel, Optional<Target> target) {
        String[] range = kernel.text("net.ipv4.ip_local_port_range").orElse("").split("\\s+");
        if (range.length != 2) {
            return Optional.empty();
        }
        int low;
        int high;
        try {
            low = Integer.parseInt(range[0]);
            high = Integer.parseInt(range[1]);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        int reserved = reservedWithin(kernel.text("net.ipv4.ip_local_reserved_ports").orElse(""), low, high);
        int reuse = (int) kernel.number("net.ipv4.tcp_tw_reuse").orElse(0);
        boolean timestamps = kernel.number("net.ipv4.tcp_timestamps").orElse(1) != 0;
        return Optional.of(new PortBudget(low, high, reserved, reuse, kernel.number("net.ipv4.tcp_tw_reuse_delay"),
                timestamps, target.map(Target::loopback).orElse(false)));
    }

    /** Counts the reserved ports ("8080,9000-9100") that fall inside the range. */
    static int reservedWithin(String list, int low, int high) {
        int count = 0;
        for (String part : list.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] ends = part.trim().split("-");
            try {
                int from = Integer.parseInt(ends[0].trim());
                int to = ends.length > 1 ? Integer.parseInt(ends[1].trim()) : from;
                count += Math.max(0, Math.min(to, high) - Math.max(from, low) + 1);
            } catch (NumberFormatException e) {
                // An unreadable entry reserves nothing we can count; the range check still stands.
            }
        }
        return count;
    }

    /** Usable local ports per destination. */
    public int ports() {
        return Math.max(0, high - low + 1 - reserved);
    }

    /** Whether a TIME_WAIT port can be taken over early for this target. */
    public boolean reuseApplies() {
        return timestamps && (reuseMode == 1 || reuseMode == 2 && targetLoopback);
    }

    /** How long a closed connection holds its port: 60 s, or the reuse delay when reuse applies. */
    public double holdSeconds() {
        return reuseApplies() ? reuseDelayMillis.orElse(1000) / 1000.0 : TIME_WAIT_SECONDS;
    }

    /** New connections per second one source address can sustain to one destination. */
    public double sustainablePerSecond() {
        return ports() / holdSeconds();
    }

    /** "32768-60999". */
    public String range() {
        return low + "-" + high;
    }
}
