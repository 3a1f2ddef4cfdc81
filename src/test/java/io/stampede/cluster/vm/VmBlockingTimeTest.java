/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.cluster.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stampede.cluster.Fixtures;
import io.stampede.cluster.model.ClusterSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VmBlockingTimeTest {

    private static final long T0_US = 1_763_870_000_000_000L;

    /** What the guest prints for one batch: 10 lines per realserver, each blocking time given in ms. */
    private static void batch(VmBlockingTime c, String phase, double web1Ms, double web2Ms) {
        assertTrue(c.accept("TRAFFIC " + phase + " 20 requests through 10.0.0.100:80, 20 answered (web1 10, web2 10)"));
        for (int i = 0; i < 10; i++) {
            long stamp = T0_US + i * 100_000L;
            assertTrue(c.accept("BLOG " + phase + " web1 " + line(stamp, web1Ms, "10.0.0.11:80")));
            assertTrue(c.accept("BLOG " + phase + " web2 " + line(stamp, web2Ms, "10.0.0.12:8080")));
        }
    }

    /** nginx's `blocking` log_format: received (msec - rt) minus the stamp = the blocking time, ms rounded. */
    private static String line(long stampUs, double blockingMs, String server) {
        long receivedMs = Math.round((stampUs / 1000.0) + blockingMs);
        return String.format(Locale.ROOT, "msec=%d.%03d rt=0.000 xrs=\"t=%d\" server=%s", receivedMs / 1000,
                receivedMs % 1000, stampUs, server);
    }

    @Test
    void theDelayOnTheSlowRealserverOnlyPassesWithItsFigures() {
        VmBlockingTime c = new VmBlockingTime(List.of("web1", "web2"), "web2");
        batch(c, VmBlockingTime.BEFORE, 0, 0);
        assertTrue(c.accept("NETEM web2 ok: tc qdisc add dev v3 root netem delay 5ms (kernel 6.1.0-56-amd64)"));
        batch(c, VmBlockingTime.AFTER, 0, 5);
        VmBlockingTime.Verdict v = c.verdict();
        assertTrue(v.pass(), v.detail());
        assertTrue(v.detail().contains("web1: 10 requests, blocking p50 0.0 ms"), v.detail());
        assertTrue(v.detail().contains("web2: p50 0.0 -> 5.0 ms, +5.0 ms (delayed"), v.detail());
        assertTrue(v.detail().contains("web1: p50 0.0 -> 0.0 ms, +0.0 ms (not delayed"), v.detail());
        assertTrue(v.detail().contains("netem: tc qdisc add dev v3 root netem delay 5ms"), v.detail());
    }

    @Test
    void anUndelayedRealserverMayMoveByTheTwoReadingsResolutionButNotByTheDelay() {
        VmBlockingTime jitter = new VmBlockingTime(List.of("web1", "web2"), "web2");
        batch(jitter, VmBlockingTime.BEFORE, 0, 0);
        jitter.accept("NETEM web2 ok: tc qdisc add dev v3 root netem delay 5ms");
        batch(jitter, VmBlockingTime.AFTER, 2, 5);
        assertTrue(jitter.verdict().pass(), jitter.verdict().detail());

        VmBlockingTime shifted = new VmBlockingTime(List.of("web1", "web2"), "web2");
        batch(shifted, VmBlockingTime.BEFORE, 0, 0);
        shifted.accept("NETEM web2 ok: tc qdisc add dev v3 root netem delay 5ms");
        batch(shifted, VmBlockingTime.AFTER, 3, 5);
        assertFalse(shifted.verdict().pass(), shifted.verdict().detail());
        String detail = shifted.verdict().detail();
        assertTrue(detail.contains("web1: p50 0.0 -> 3.0 ms, +3.0 ms (not delayed: ±2 expected)  <- wrong"), detail);
    }

    @Test
    void aDelayThatShowsUpOnTheWrongRealserverOrNowhereFails() {
        VmBlockingTime wrong = new VmBlockingTime(List.of("web1", "web2"), "web2");
        batch(wrong, VmBlockingTime.BEFORE, 0, 0);
        wrong.accept("NETEM web2 ok: tc qdisc add dev v3 root netem delay 5ms");
        batch(wrong, VmBlockingTime.AFTER, 5, 5);
        VmBlockingTime.Verdict v = wrong.verdict();
        assertFalse(v.pass(), v.detail());
        assertTrue(v.detail().contains("web1: p50 0.0 -> 5.0 ms, +5.0 ms (not delayed: ±2 expected)  <- wrong"),
                v.detail());

        VmBlockingTime nowhere = new VmBlockingTime(List.of("web1", "web2"), "web2");
        batch(nowhere, VmBlockingTime.BEFORE, 0, 0);
        nowhere.accept("NETEM web2 ok: tc qdisc add dev v3 root netem delay 5ms");
        batch(nowhere, VmBlockingTime.AFTER, 0, 1);
        assertFalse(nowhere.verdict().pass(), nowhere.verdict().detail());
    }

    @Test
    void aKernelWithoutNetemOrAGuestThatStoppedFails() {
        VmBlockingTime noNetem = new VmBlockingTime(List.of("web1", "web2"), "web2");
        batch(noNetem, VmBlockingTime.BEFORE, 0, 0);
        noNetem.accept("NETEM web2 FAIL: tc qdisc add dev v3 root netem delay 5ms: Specified qdisc kind is unknown.");
        VmBlockingTime.Verdict v = noNetem.verdict();
        assertFalse(v.pass());
        assertTrue(v.detail().contains("NOT set on Debian's kernel: web2 FAIL"), v.detail());

        VmBlockingTime stopped = new VmBlockingTime(List.of("web1", "web2"), "web2");
        assertFalse(stopped.verdict().pass());
        assertEquals("the guest reported no measurement", stopped.verdict().detail());
    }

    @Test
    void unstampedLinesAndOtherReportsAreToldApart() {
        VmBlockingTime c = new VmBlockingTime(List.of("web1", "web2"), "web2");
        assertFalse(c.accept("UP VRRP MASTER ha1 holds 10.0.0.100"), "for the screen");
        assertFalse(c.accept("BLOG before web9 msec=1.000"), "not a realserver of the run");
        c.accept("TRAFFIC before 2 requests");
        c.accept("BLOG before web1 msec=1763870000.001 rt=0.000 xrs=\"-\" server=10.0.0.11:80");
        c.accept("BLOG before web2 msec=1763870000.001 rt=0.000 xrs=\"-\" server=10.0.0.12:8080");
        VmBlockingTime.Verdict v = c.verdict();
        assertFalse(v.pass());
        assertTrue(v.detail().contains("web1: its new log lines: none of its 1 lines has an X-Request-Start stamp"),
                v.detail());
    }

    @Test
    void anHaproxyDescriptionGetsCheck7sRunFiles(@TempDir Path tmp) throws IOException {
        ClusterSpec spec = Fixtures.spec(Fixtures.HAPROXY);
        Path run = tmp.resolve("run");
        VmLab.prepare(spec, run);
        String env = Files.readString(run.resolve("run.env"));
        assertTrue(env.contains("MODE='haproxy'\n"), env);
        assertTrue(env.contains("PORT_web2='8080'\n"), env);
        assertTrue(env.contains("WEIGHTED='web1 web2'\nSLOW='web2'\n"), env);
        assertTrue(env.contains("BLOG='/var/log/nginx/blocking-time.log'\n"), env);
        assertTrue(Files.isDirectory(run.resolve("h/ha1/run/haproxy")), "HAProxy's stats socket folder");
        assertTrue(Files.readString(run.resolve("h/ha1/etc/haproxy/haproxy.cfg")).contains("date(0,us)"));
        assertTrue(Files.readString(run.resolve("h/web2/etc/nginx/nginx.conf"))
                .contains(run.resolve("h/web2/var/log/nginx/blocking-time.log").toString()));
        assertFalse(Files.exists(run.resolve("variants")), "no LVS sync variants");
    }
}
