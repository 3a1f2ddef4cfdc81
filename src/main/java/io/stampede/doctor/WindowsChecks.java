/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.doctor;

import java.util.List;

/**
 * On Windows the JVM cannot read the TCP settings, so the doctor explains them with their defaults and the
 * commands to see and change them; the planned rate is compared with the defaults.
 */
final class WindowsChecks {

    /** Dynamic (ephemeral) port range since Vista / Server 2008: 49152-65535. */
    static final int DEFAULT_PORTS = 16384;
    /** TcpTimedWaitDelay default: TIME_WAIT lasts 240 s. */
    static final int DEFAULT_TIME_WAIT_SECONDS = 240;

    private final PlannedLoad load;

    WindowsChecks(PlannedLoad load) {
        this.load = load;
    }

    void addTo(Findings out) {
        out.fact("Windows defaults: ports 49152-65535, " + DEFAULT_PORTS + " per destination, TIME_WAIT "
                + DEFAULT_TIME_WAIT_SECONDS + " s");
        out.add(Check.ok("ports", "dynamic port range",
                "not read (default 49152-65535 = " + DEFAULT_PORTS + " ports)",
                "see it with: netsh int ipv4 show dynamicport tcp"));
        double sustainable = DEFAULT_PORTS / (double) DEFAULT_TIME_WAIT_SECONDS;
        String value = "about " + Numbers.rate(sustainable) + " new connections/s per destination with the defaults ("
                + DEFAULT_PORTS + " ports / " + DEFAULT_TIME_WAIT_SECONDS + " s TcpTimedWaitDelay)";
        List<String> remedy = List.of(
                "netsh int ipv4 set dynamicport tcp start=10000 num=55535",
                "reg add HKLM\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters /v TcpTimedWaitDelay /t REG_DWORD"
                        + " /d 30 /f   (then reboot)",
                "count TIME_WAIT during a run: netstat -an | find /c \"TIME_WAIT\"",
                "better: design the plan in the GUI here, run it non-GUI on a Linux injector (stampede run), with keep-alive");
        String detail = "out of ports shows as java.net.BindException (Address already in use: connect), WSAEADDRINUSE"
                + " 10048; the JVM cannot read these settings, check them with the commands below";
        if (load.churnsConnections()) {
            double planned = load.newConnectionsPerSecond().getAsDouble();
            value += "; planned " + Numbers.rate(planned) + "/s";
            if (planned > sustainable && !(load.totalNewConnections().isPresent()
                    && load.totalNewConnections().getAsLong() <= DEFAULT_PORTS)) {
                out.add("new-connection-rate", "new connections/s", value, Verdict.FAIL,
                        "with the default settings the planned rate runs out of ports; " + detail, remedy);
                return;
            }
        }
        out.add("new-connection-rate", "new connections/s", value, Verdict.WARN, detail, remedy);
    }
}
